const numbers = new Intl.NumberFormat()

/** A count as people read it: "1,234". */
export function count(n: number): string {
  return numbers.format(n)
}

/** "1 draft", "1,234 drafts". */
export function drafts(n: number): string {
  return `${count(n)} draft${n === 1 ? '' : 's'}`
}
