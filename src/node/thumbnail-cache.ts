/** What the thumbnail route answers for one photo address: the picture, or why it is not shown. */
export type ThumbnailAnswer =
  { kind: 'picture'; bytes: Uint8Array; type: string } | { kind: 'refused'; status: number; words: string }

export interface ThumbnailCacheBounds {
  /** Answers kept at most, pictures and refusals together. */
  maxEntries: number
  /** Bytes kept at most: the pictures' bytes, and a refusal's words. */
  maxBytes: number
  /** How long a picture is served from the cache before it is fetched again. */
  pictureMs: number
  /**
   * How long a refusal is: a server that was down may be up, a missing photo may be put back. Long
   * enough that rows drawn again while scrolling never ask the network twice.
   */
  refusalMs: number
}

interface Entry {
  answer: ThumbnailAnswer
  weight: number
  expiresAt: number
}

const weightOf = (answer: ThumbnailAnswer) =>
  answer.kind === 'picture' ? answer.bytes.byteLength : answer.words.length

/**
 * The thumbnail route's answers by key, within a number of entries and of bytes: the least
 * recently used go first. An answer heavier than the whole budget is not kept at all.
 */
export class ThumbnailCache {
  readonly #entries = new Map<string, Entry>()
  readonly #bounds: ThumbnailCacheBounds
  readonly #now: () => number
  #weight = 0

  constructor(bounds: ThumbnailCacheBounds, now: () => number = Date.now) {
    this.#bounds = bounds
    this.#now = now
  }

  /** Entries kept now. */
  get size(): number {
    return this.#entries.size
  }

  /** Bytes kept now. */
  get bytes(): number {
    return this.#weight
  }

  get(key: string): ThumbnailAnswer | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    this.#drop(key, entry)
    if (entry.expiresAt <= this.#now()) return undefined
    // Most recently used last: the oldest is the first to go.
    this.#add(key, entry)
    return entry.answer
  }

  set(key: string, answer: ThumbnailAnswer): void {
    const previous = this.#entries.get(key)
    if (previous) this.#drop(key, previous)
    const weight = weightOf(answer)
    if (weight > this.#bounds.maxBytes) return
    const lasts = answer.kind === 'picture' ? this.#bounds.pictureMs : this.#bounds.refusalMs
    this.#add(key, { answer, weight, expiresAt: this.#now() + lasts })
    for (const [oldKey, old] of this.#entries) {
      if (this.#entries.size <= this.#bounds.maxEntries && this.#weight <= this.#bounds.maxBytes) break
      this.#drop(oldKey, old)
    }
  }

  #add(key: string, entry: Entry) {
    this.#entries.set(key, entry)
    this.#weight += entry.weight
  }

  #drop(key: string, entry: Entry) {
    this.#entries.delete(key)
    this.#weight -= entry.weight
  }
}
