const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export function formatTime(epochMs: number): string {
  return timeFormat.format(epochMs)
}
