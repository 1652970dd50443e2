import type { ServiceProblem } from '../service/outcome.ts'

/**
 * How a refused batch is broken up. The sandbox (and, as far as the contract lets us know, the
 * service) refuses a batch all or nothing, so a 400 says only "something in here is wrong". The
 * safe rule is halving until a refused item stands alone: an item is marked rejected only when a
 * request holding it and nothing else was refused, so nothing is ever blamed for a neighbour.
 */

/** Two halves, the first the larger; a batch of one cannot be split (the caller checks). */
export function halves<T>(items: readonly T[]): T[][] {
  const middle = Math.ceil(items.length / 2)
  return [items.slice(0, middle), items.slice(middle)].filter((half) => half.length > 0)
}

/** The batch positions a bulk upload's problems name (`skus.3.barcode` → 3), within the batch. */
export function namedPositions(problems: readonly ServiceProblem[] | undefined, size: number): number[] {
  const named = new Set<number>()
  for (const problem of problems ?? []) {
    const match = /^skus\.(\d+)(?:\.|$)/.exec(problem.path)
    const index = match ? Number(match[1]) : NaN
    if (Number.isInteger(index) && index < size) named.add(index)
  }
  return [...named].sort((a, b) => a - b)
}

/**
 * The groups to send after a 400/422 of a batch of two or more. The service's problem paths are
 * used as a hint only: the items they name go alone and the others together, so a correct hint
 * costs one request per bad item instead of a halving per level. A wrong hint cannot misattribute:
 * a named item that is fine is accepted on its own, and a group that is refused again is split
 * again. When the hint names nothing or everything, it says nothing useful: halves.
 */
export function splitRejected<T>(
  items: readonly T[],
  problems: readonly ServiceProblem[] | undefined,
): T[][] {
  const named = namedPositions(problems, items.length)
  if (named.length === 0 || named.length === items.length) return halves(items)
  const isNamed = new Set(named)
  const rest = items.filter((_, index) => !isNamed.has(index))
  return [rest, ...named.map((index) => [items[index]!])]
}
