const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export function formatTime(epochMs: number): string {
  return timeFormat.format(epochMs)
}

const conjunction = new Intl.ListFormat('en', { type: 'conjunction' })

/** Words as a sentence lists them: "Draco", "Draco and KTX2", "Draco, meshopt, and KTX2". */
export function listed(words: readonly string[]): string {
  return conjunction.format(words)
}

/** A note written for a line of the CLI's output ("read as an XML feed: …") as a sentence on the page. */
export function sentence(note: string): string {
  const text = note.charAt(0).toUpperCase() + note.slice(1)
  return /[.!?]$/.test(text) ? text : `${text}.`
}
