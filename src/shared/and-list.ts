/** Words as a sentence lists them, without the serial comma: "A", "A and B", "A, B and C". */
export function andList(words: readonly string[]): string {
  if (words.length <= 1) return words.join('')
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`
}
