import { opposite, walkIndex, type Anchor, type CursorDirection, type IndexEntry } from './index-walk.ts'
import type { SkuDraftRecord } from './records.ts'
import type { SortKey } from './sku-list-query.ts'

// A view of the list's query: its rows read a page at a time and kept in a bounded cache, either
// straight from the sort index (every draft) or by the ids of the matches in order (a search or a
// filter; where those fall in the order is `sku-list-match-order.ts`).

/** Rows read at a time: about two screens of the list. */
export const PAGE_SIZE = 50
/** Pages a view keeps: some screens around where the user has been, ~3,000 drafts at most. */
const MAX_PAGES = 60

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

/** The ids of a query's matches in the list's order, found as they are asked for (`MatchOrder`). */
export interface MatchedIds {
  readonly total: number
  readonly match: ReadonlySet<string>
  /** The ids at positions first..last (inclusive). */
  between(first: number, last: number): Promise<string[]>
}

/** The drafts matching a search or filters: their ids are known, their rows read a page at a time. */
export class MatchView extends PagedView {
  private readonly order: MatchedIds
  private readonly getRecords: (ids: string[]) => Promise<Array<SkuDraftRecord | undefined>>
  private readonly preloaded: ReadonlyMap<string, SkuDraftRecord> | undefined

  constructor(options: {
    order: MatchedIds
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
