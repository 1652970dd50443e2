/** A row's cell at a column the format found (none: ''), without the spaces around it. */
export const cellAt = (cells: readonly string[], index: number | undefined): string =>
  index === undefined ? '' : (cells[index] ?? '').trim()
