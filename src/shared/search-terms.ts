/** Lower-case words of the given texts, each once: what a search prefix is matched against. */
export function searchTerms(...texts: readonly string[]): string[] {
  const terms = new Set<string>()
  for (const text of texts) {
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word) terms.add(word)
  }
  return [...terms]
}
