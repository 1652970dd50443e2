import { counted as countedAs } from '#shared/counted.ts'

// The page's first Intl object loads the locale's data (~20 ms here): made as this module loads,
// which the window's start does in a stage of its own (main.ts, issue #37).
const numbers = new Intl.NumberFormat()

/** A count as people read it: "1,234". */
export function count(n: number): string {
  return numbers.format(n)
}

/** A count with its noun, its number in the person's language: "1 draft", "1,234 drafts". */
export function counted(n: number, noun: string): string {
  return countedAs(n, noun, count)
}

/** "1 draft", "1,234 drafts". */
export function drafts(n: number): string {
  return counted(n, 'draft')
}
