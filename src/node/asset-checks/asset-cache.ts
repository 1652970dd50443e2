import { readFile } from 'node:fs/promises'
import { isRecord } from '#shared/is-record.ts'
import type { AssetOutcome } from '#shared/asset-checks/results.ts'
import { writeJsonLinesAtomic } from '../atomic-json.ts'
import type { Validators } from '../net/guarded-fetch.ts'

/**
 * What a check found, kept with the validators (ETag, Last-Modified) of the files it read, so a
 * later run asks the server whether they changed (a conditional GET) and reuses the finding on a
 * 304 instead of downloading and validating again.
 *
 * Only outcomes are kept, never a budget's verdict: the budgets are judged again each run, so a
 * changed budget applies to kept findings too. A file served without validators is not kept (it
 * cannot be asked about), nor is a failure (a dead link is checked again every run).
 *
 * On disk (`AssetCacheFile`): JSON Lines, a header line naming the format and the glTF-Validator's
 * version (a finding of another version is not reused: the new one may find more), then one line a
 * file; written whole and atomically at the end of a run; bounded to `MAX_CACHED` files, the ones
 * least recently used dropped first.
 */
export interface CachedCheck {
  /** The checker's key: the class and the normalised address. */
  key: string
  validators: Validators
  /** The external files a .gltf read, each revalidated too. */
  dependencies: { url: string; validators: Validators }[]
  outcome: AssetOutcome
  /** When it was last checked or revalidated (ms since the epoch). */
  usedAt: number
}

export interface AssetCache {
  get(key: string): CachedCheck | undefined
  set(entry: CachedCheck): void
}

/** A cache for one run only (the app's, or a test's). */
export function memoryCache(): AssetCache & { entries: Map<string, CachedCheck> } {
  const entries = new Map<string, CachedCheck>()
  return { entries, get: (key) => entries.get(key), set: (entry) => void entries.set(entry.key, entry) }
}

export const CACHE_FORMAT = 'catalog-desk-asset-checks/1'
/** Files kept at most: a catalogue's worth of distinct models and pictures, a few megabytes on disk. */
export const MAX_CACHED = 10_000

/** The file is something else than a cache this version wrote: it is not overwritten. */
export class NotACacheError extends Error {
  constructor(file: string, why: string) {
    super(
      `${file} is not a check-assets cache (${why}); it was left as it is. Name another file, or delete it.`,
    )
    this.name = 'NotACacheError'
  }
}

const isCachedCheck = (value: unknown): value is CachedCheck =>
  isRecord(value) &&
  typeof value.key === 'string' &&
  isRecord(value.validators) &&
  Array.isArray(value.dependencies) &&
  isRecord(value.outcome) &&
  Array.isArray(value.outcome.problems) &&
  typeof value.usedAt === 'number'

export class AssetCacheFile implements AssetCache {
  private readonly entries = new Map<string, CachedCheck>()
  private readonly file: string
  private readonly validatorVersion: string
  /** Why findings kept in the file were set aside, for the person to read ('' when none were). */
  readonly note: string

  private constructor(file: string, validatorVersion: string, note: string) {
    this.file = file
    this.validatorVersion = validatorVersion
    this.note = note
  }

  /**
   * Reads the cache at `file` (none yet is an empty cache). Throws NotACacheError for a file that
   * is not one, and the read error for one that cannot be read.
   */
  static async open(file: string, validatorVersion: string): Promise<AssetCacheFile> {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return new AssetCacheFile(file, validatorVersion, '')
      throw error
    }
    const lines = text.split('\n').filter((line) => line.trim() !== '')
    let header: unknown
    try {
      header = JSON.parse(lines[0] ?? '')
    } catch {
      header = undefined
    }
    if (!isRecord(header) || header.format !== CACHE_FORMAT) {
      throw new NotACacheError(file, `its first line is not {"format": "${CACHE_FORMAT}", …}`)
    }
    if (header.validator !== validatorVersion) {
      const note = `the cache's findings were made by glTF-Validator ${String(header.validator)}, not ${validatorVersion}: every file is checked again`
      return new AssetCacheFile(file, validatorVersion, note)
    }
    const cache = new AssetCacheFile(file, validatorVersion, '')
    for (const line of lines.slice(1)) {
      try {
        const entry: unknown = JSON.parse(line)
        if (isCachedCheck(entry)) cache.entries.set(entry.key, entry)
      } catch {
        // A line edited by hand is a finding lost, checked again: never a reason to stop.
      }
    }
    return cache
  }

  get size(): number {
    return this.entries.size
  }

  get(key: string): CachedCheck | undefined {
    return this.entries.get(key)
  }

  set(entry: CachedCheck): void {
    this.entries.delete(entry.key)
    this.entries.set(entry.key, entry)
  }

  /** Writes the cache, the most recently used `MAX_CACHED` files, atomically. */
  async save(): Promise<void> {
    const kept = [...this.entries.values()].sort((a, b) => b.usedAt - a.usedAt).slice(0, MAX_CACHED)
    await writeJsonLinesAtomic(this.file, [
      { format: CACHE_FORMAT, validator: this.validatorVersion },
      ...kept,
    ])
  }
}
