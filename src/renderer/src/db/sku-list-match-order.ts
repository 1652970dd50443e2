import { opposite, walkIndex, type Anchor, type CursorDirection } from './index-walk.ts'
import { PAGE_SIZE, type IndexSource, type MatchedIds } from './sku-list-pages.ts'

// Where the drafts a search or filters match fall in the list's order, and the costs that choose
// how to find it: read every match and sort it in memory (few matches), or walk the sort index
// for them a stretch at a time, or read the whole index's order once.

/**
 * Costs measured in Chromium 156 on the project's 2-core machines at 100,000 drafts: one step of a
 * key cursor ~7 µs, one key of `getAllKeys` ~2.4 µs, one record of `bulkGet` ~34 µs.
 */
const WALK_STEP_COST = 3
const GET_COST = 34
const STEP_COST = 7
/** Below this many matches, reading them all is a few milliseconds whatever the rest costs. */
const SMALL_MATCH = 200

/**
 * Whether to read every match and sort it in memory rather than walk the sort index: reading costs
 * ~34 µs a match, while finding the first page by walking costs ~7 µs × a page × drafts ÷ matches.
 */
export function sortsInMemory(matches: number, indexSize: number): boolean {
  return matches <= SMALL_MATCH || GET_COST * matches * matches <= STEP_COST * PAGE_SIZE * indexSize
}

/**
 * The order of a set of matching ids along the sort index, found lazily: walking the index from
 * the front (or the back) until enough matches are seen costs about (position × drafts ÷ matches)
 * steps, so the first and the last screens are cheap at any size. Where a walk would cost more
 * than reading the whole index's ids, those are read instead (once).
 */
export class MatchOrder implements MatchedIds {
  readonly match: ReadonlySet<string>
  private readonly source: IndexSource | undefined
  private readonly direction: CursorDirection
  private readonly indexSize: number
  private readonly orderedIds: (() => Promise<string[]>) | undefined
  private front: string[] = []
  private back: string[] = []
  private frontAnchor: Anchor | undefined
  private backAnchor: Anchor | undefined
  private full: string[] | undefined
  private busy: Promise<unknown> = Promise.resolve()

  constructor(options: {
    match: ReadonlySet<string>
    /** The order, when already known (small sets are sorted in memory). */
    known?: string[]
    source?: IndexSource
    direction?: CursorDirection
    indexSize?: number
    /** Every id of the index, in the list's order. */
    orderedIds?: () => Promise<string[]>
  }) {
    this.match = options.match
    this.full = options.known
    this.source = options.source
    this.direction = options.direction ?? 'next'
    this.indexSize = options.indexSize ?? options.match.size
    this.orderedIds = options.orderedIds
  }

  get total(): number {
    return this.match.size
  }

  /** The ids at positions first..last (inclusive). */
  between(first: number, last: number): Promise<string[]> {
    // One extension at a time: two concurrent walks would both append to the same end.
    const result = this.busy.then(() => this.resolve(Math.max(0, first), Math.min(this.total, last + 1)))
    this.busy = result.catch(() => undefined)
    return result
  }

  private async resolve(start: number, end: number): Promise<string[]> {
    for (;;) {
      if (this.full) return this.full.slice(start, end)
      if (end <= this.front.length) return this.front.slice(start, end)
      if (this.total - start <= this.back.length) {
        return this.back.slice(this.total - end, this.total - start).reverse()
      }
      const needFront = end - this.front.length
      const needBack = this.total - start - this.back.length
      const stepsPerMatch = this.indexSize / Math.max(1, this.total)
      if (Math.min(needFront, needBack) * stepsPerMatch * WALK_STEP_COST > this.indexSize) {
        await this.readWholeOrder()
      } else if (needFront <= needBack) {
        await this.extend('front', needFront + PAGE_SIZE)
      } else {
        await this.extend('back', needBack + PAGE_SIZE)
      }
    }
  }

  private async extend(side: 'front' | 'back', count: number) {
    const front = side === 'front'
    const entries = await walkIndex(this.source!(), {
      direction: front ? this.direction : opposite(this.direction),
      after: front ? this.frontAnchor : this.backAnchor,
      skip: 0,
      take: count,
      accept: (id) => this.match.has(id),
      values: false,
    })
    const ids = front ? this.front : this.back
    for (const entry of entries) ids.push(entry.id)
    const last = entries.at(-1)
    if (last) {
      if (front) this.frontAnchor = { key: last.key, id: last.id }
      else this.backAnchor = { key: last.key, id: last.id }
    }
    if (entries.length < count) {
      // The walk reached the other end of the index: it has seen every match.
      this.full = front ? this.front : [...this.back].reverse()
    } else if (this.front.length + this.back.length >= this.total) {
      this.full = this.front.concat(this.back.slice(0, this.total - this.front.length).reverse())
    }
  }

  private async readWholeOrder() {
    const all = await this.orderedIds!()
    this.full = all.filter((id) => this.match.has(id))
  }
}
