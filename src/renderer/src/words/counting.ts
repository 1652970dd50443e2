// The page's first Intl object loads the locale's data (~20 ms here): made as this module loads,
// which the window's start does in a stage of its own (main.ts, issue #37).
const numbers = new Intl.NumberFormat()

/** A count as people read it: "1,234". */
export function count(n: number): string {
  return numbers.format(n)
}

/** A count with its noun, for nouns that take an -s: "1 draft", "1,234 drafts". */
export function counted(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? '' : 's'}`
}

/** "1 draft", "1,234 drafts". */
export function drafts(n: number): string {
  return counted(n, 'draft')
}
