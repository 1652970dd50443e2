import { thousands, type NumberWords } from './sheet/places.ts'

/**
 * A count with its noun, for nouns that take an -s (all of ours): "1 SKU", "3,001 SKUs". The one
 * rule the CLI, the sandbox and the page say a count by; `number` says the number (the page
 * passes its own, in the person's language: words/counting.ts).
 */
export function counted(n: number, noun: string, number: NumberWords = thousands): string {
  return `${number(n)} ${noun}${n === 1 ? '' : 's'}`
}
