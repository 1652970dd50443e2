import { walkIndex, type Anchor, type IndexEntry } from './index-walk.ts'
import type { SkuDraftRecord } from './records.ts'
import type { SortKey } from './sku-list-query.ts'

/** Rows read at a time: about two screens of the list. */
export const PAGE_SIZE = 50
/** Pages a view keeps: some screens around where the user has been, ~3,000 drafts at most. */
const MAX_PAGES = 60
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

export type CursorDirection = 'next' | 'prev'
/** Opens the sort index in a fresh read-only transaction. */
export type IndexSource = () => IDBIndex

/** A list query's drafts at one moment: how many, and the rows at any position, read on demand. */
export interface ListView {
  readonly total: number
  /** A row already read, by position in the list's order (0 is the first). */
  cached(position: number): SkuDraftRecord | undefined
  /** Reads whatever is missing of the rows at positions first..last. */
  load(first: number, last: number): Promise<void>
  /** The ids at positions first..last, without reading records where possible. */
  idsBetween(first: number, last: number): Promise<string[]>
  /** Every id the view holds, in no particular order. */
  allIds(): Promise<string[]>
}

/** Page bookkeeping shared by both kinds of view: a bounded cache, one read per page at a time. */
abstract class PagedView implements ListView {
  abstract readonly total: number
  protected readonly pages = new Map<number, SkuDraftRecord[]>()
  private readonly pending = new Map<number, Promise<void>>()

  protected abstract readPage(page: number): Promise<SkuDraftRecord[]>
  abstract idsBetween(first: number, last: number): Promise<string[]>
  abstract allIds(): Promise<string[]>

  cached(position: number): SkuDraftRecord | undefined {
    return this.pages.get(Math.floor(position / PAGE_SIZE))?.[position % PAGE_SIZE]
  }

  /** Takes a page read by whoever opened the view. */
  prime(page: number, rows: SkuDraftRecord[]): void {
    this.pages.set(page, rows)
  }

  async load(first: number, last: number): Promise<void> {
    const from = Math.max(0, Math.floor(first / PAGE_SIZE))
    const to = Math.min(Math.ceil(this.total / PAGE_SIZE) - 1, Math.floor(last / PAGE_SIZE))
    const order = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i)
    // One page after the other, starting next to a page already read, so each can start from its
    // neighbour instead of from an end of the index.
    if (!this.pages.has(from - 1) && this.pages.has(to + 1)) order.reverse()
    for (const page of order) {
      if (this.pages.has(page)) continue
      let reading = this.pending.get(page)
      if (!reading) {
        reading = this.readPage(page)
          .then((rows) => {
            this.pages.set(page, rows)
            this.evictAround(page)
          })
          .finally(() => this.pending.delete(page))
        this.pending.set(page, reading)
      }
      await reading
    }
  }

  private evictAround(page: number) {
    if (this.pages.size <= MAX_PAGES) return
    const farthest = [...this.pages.keys()].sort((a, b) => Math.abs(b - page) - Math.abs(a - page))
    for (const key of farthest.slice(0, this.pages.size - MAX_PAGES)) this.pages.delete(key)
  }
}

const opposite = (direction: CursorDirection): CursorDirection => (direction === 'next' ? 'prev' : 'next')

/**
 * Every draft, in the order of one index. Nothing is read but the pages shown: a page comes from
 * the nearer end of the index, or from the edge of a page already read, whichever is fewer steps.
 */
export class IndexView extends PagedView {
  readonly total: number
  private readonly source: IndexSource
  private readonly sort: SortKey
  private readonly direction: CursorDirection
  private readonly listIds: () => Promise<string[]>

  constructor(options: {
    source: IndexSource
    total: number
    sort: SortKey
    direction: CursorDirection
    allIds: () => Promise<string[]>
  }) {
    super()
    this.source = options.source
    this.total = options.total
    this.sort = options.sort
    this.direction = options.direction
    this.listIds = options.allIds
  }

  protected async readPage(page: number): Promise<SkuDraftRecord[]> {
    const start = page * PAGE_SIZE
    const entries = await this.read(start, Math.min(PAGE_SIZE, this.total - start), true)
    return entries.map((entry) => entry.value as SkuDraftRecord)
  }

  async idsBetween(first: number, last: number): Promise<string[]> {
    const start = Math.max(0, first)
    const count = Math.min(this.total - 1, last) - start + 1
    return (await this.read(start, count, false)).map((entry) => entry.id)
  }

  allIds(): Promise<string[]> {
    return this.listIds()
  }

  /** `count` entries from position `start`, by the cheapest way there. */
  private async read(start: number, count: number, values: boolean): Promise<IndexEntry[]> {
    if (count <= 0) return []
    const end = start + count
    const anchor = (row: SkuDraftRecord): Anchor => ({ key: row[this.sort], id: row.id })
    type Plan = { cost: number; walkBack: boolean; after?: Anchor; skip: number }
    let best: Plan = { cost: start, walkBack: false, skip: start }
    const fromEnd = this.total - end
    if (fromEnd < best.cost) best = { cost: fromEnd, walkBack: true, skip: fromEnd }
    for (const [page, rows] of this.pages) {
      const pageStart = page * PAGE_SIZE
      const pageEnd = pageStart + rows.length
      const lastRow = rows.at(-1)
      const firstRow = rows[0]
      if (lastRow && pageEnd <= start && start - pageEnd < best.cost) {
        best = { cost: start - pageEnd, walkBack: false, after: anchor(lastRow), skip: start - pageEnd }
      } else if (firstRow && pageStart >= end && pageStart - end < best.cost) {
        best = { cost: pageStart - end, walkBack: true, after: anchor(firstRow), skip: pageStart - end }
      }
    }
    const entries = await walkIndex(this.source(), {
      direction: best.walkBack ? opposite(this.direction) : this.direction,
      after: best.after,
      skip: best.skip,
      take: count,
      values,
    })
    return best.walkBack ? entries.reverse() : entries
  }
}

/**
 * The order of a set of matching ids along the sort index, found lazily: walking the index from
 * the front (or the back) until enough matches are seen costs about (position × drafts ÷ matches)
 * steps, so the first and the last screens are cheap at any size. Where a walk would cost more
 * than reading the whole index's ids, those are read instead (once).
 */
export class MatchOrder {
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

/** The drafts matching a search or filters: their ids are known, their rows read a page at a time. */
export class MatchView extends PagedView {
  private readonly order: MatchOrder
  private readonly getRecords: (ids: string[]) => Promise<Array<SkuDraftRecord | undefined>>
  private readonly preloaded: ReadonlyMap<string, SkuDraftRecord> | undefined

  constructor(options: {
    order: MatchOrder
    getRecords: (ids: string[]) => Promise<Array<SkuDraftRecord | undefined>>
    /** Records already read while finding the order (small sets), served without reading again. */
    preloaded?: ReadonlyMap<string, SkuDraftRecord>
  }) {
    super()
    this.order = options.order
    this.getRecords = options.getRecords
    this.preloaded = options.preloaded
  }

  get total(): number {
    return this.order.total
  }

  protected async readPage(page: number): Promise<SkuDraftRecord[]> {
    const start = page * PAGE_SIZE
    const ids = await this.order.between(start, start + PAGE_SIZE - 1)
    const preloaded = this.preloaded
    const records = preloaded ? ids.map((id) => preloaded.get(id)) : await this.getRecords(ids)
    return records.filter((record): record is SkuDraftRecord => record !== undefined)
  }

  idsBetween(first: number, last: number): Promise<string[]> {
    return this.order.between(first, last)
  }

  allIds(): Promise<string[]> {
    return Promise.resolve([...this.order.match])
  }
}
