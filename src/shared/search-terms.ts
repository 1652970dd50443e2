/** Lower-case words of the given texts, each once: the words of a search, and most of what it is matched against. */
export function searchTerms(...texts: readonly string[]): string[] {
  const terms = new Set<string>()
  for (const text of texts) {
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word) terms.add(word)
  }
  return [...terms]
}

/**
 * The fewest digits that find a barcode by a part inside it ("1005" in 4006381005123); fewer
 * still find it by its start. Four, not three: three digits occur in about one barcode in a
 * hundred (ten places in a 13-digit barcode, a thousand values), so at 100,000 drafts they would
 * find about a thousand, which is not finding one; each shorter part would also be one more entry
 * in the search index for every draft an import writes (docs/benchmarks.md, "The indexes' budget").
 */
export const BARCODE_PART_MIN = 4

const DIGITS = /^[0-9]+$/

/**
 * What a barcode's parts start with in the index: never a word's start (words are letters and
 * digits), so a part is found only by what a search looks up for a barcode, and the digits of a
 * name or a brand are found by their start, as every word is.
 */
const PART = '#'

/**
 * What a SKU draft's search words index (its `terms`): the words of its name, brand and barcode,
 * and the parts of its barcode a search finds it by (`barcodeParts`).
 */
export function draftTerms(productName: string, brand: string, barcode: string): string[] {
  return [...new Set([...searchTerms(productName, brand, barcode), ...barcodeParts(barcode)])]
}

/**
 * The parts of a barcode that a search finds it by, marked (`PART`). The index matches a term's
 * start, so a part is the barcode from some digit on; only every second one is kept (from the
 * first digit, while `BARCODE_PART_MIN` digits remain), which halves their cost on every import:
 * digits that start at an odd place are found through the part one digit before them (see
 * `searchPrefixes`). A 13-digit barcode has five.
 */
export function barcodeParts(barcode: string): string[] {
  const parts: string[] = []
  for (const word of searchTerms(barcode)) {
    if (!DIGITS.test(word)) continue
    for (let start = 0; word.length - start >= BARCODE_PART_MIN; start += 2)
      parts.push(PART + word.slice(start))
  }
  return parts
}

/**
 * The starts of indexed terms a search word finds: the word itself (any word by its start), and
 * for `BARCODE_PART_MIN` digits or more the barcode parts starting with it or with any one digit
 * before it. Together they find the digits anywhere in a barcode, and only in a barcode.
 */
export function searchPrefixes(word: string): string[] {
  if (word.length < BARCODE_PART_MIN || !DIGITS.test(word)) return [word]
  return [word, PART + word, ...'0123456789'.split('').map((digit) => PART + digit + word)]
}

/** Whether a draft's terms hold a match for every word of a search (the in-memory twin of the index lookups). */
export function termsMatch(terms: readonly string[], words: readonly string[]): boolean {
  return words.every((word) =>
    searchPrefixes(word).some((prefix) => terms.some((term) => term.startsWith(prefix))),
  )
}
