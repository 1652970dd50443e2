const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export function formatTime(epochMs: number): string {
  return timeFormat.format(epochMs)
}

const conjunction = new Intl.ListFormat('en', { type: 'conjunction' })

/** Words as a sentence lists them: "Draco", "Draco and KTX2", "Draco, meshopt, and KTX2". */
export function listed(words: readonly string[]): string {
  return conjunction.format(words)
}
