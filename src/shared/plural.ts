/** "1 SKU", "3 SKUs": a count with its noun, for nouns that take an -s (all of ours). */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
