import { normaliseAddress } from '#shared/asset-checks/address.ts'
import type { AssetBudgets } from '#shared/asset-checks/budgets.ts'
import { inspectModel } from '#shared/asset-checks/inspect-model.ts'
import { inspectPicture } from '#shared/asset-checks/inspect-picture.ts'
import type { AssetClass, AssetOutcome } from '#shared/asset-checks/results.ts'
import { guardedFetchRevalidating, type Validators } from '../net/guarded-fetch.ts'
import type { AssetCache, CachedCheck } from './asset-cache.ts'
import {
  ASSET_TIMEOUT_MS,
  assetFetchOptions,
  failedOutcome,
  MAX_EXTERNAL_FILES,
  MODEL_DEADLINE_MS,
  type AssetFetchSettings,
} from './asset-fetch.ts'

/**
 * Checks assets by address, each once: a file that many SKUs name (a shared model, one
 * environment for a whole catalogue) is fetched and validated once a run, whether the second SKU
 * asks while the first check is under way (the same promise) or after it ended (the same outcome).
 * Addresses are compared normalised (address.ts), and an address named both as a model and as a
 * picture is checked once as each.
 *
 * With a cache, a file checked in an earlier run is asked for conditionally (its ETag or
 * Last-Modified); a 304 reuses the finding, so nothing is downloaded or validated again. A .gltf's
 * external files are asked for too: the finding stands only when none of them changed either.
 *
 * At most `concurrency` files are fetched and read at once (a model's external files within its turn).
 */
export interface AssetCheckerOptions extends AssetFetchSettings {
  /** Their maximums are the download limits: a file over one is an error without reading further. */
  budgets: AssetBudgets
  concurrency: number
  cache?: AssetCache
  now?: () => number
  /**
   * Reads a downloaded model: `inspectModel` in-process unless told (the CLI). Main gives the one
   * on a thread of its own (model-inspection-thread.ts), which keeps its event loop free while the
   * glTF-Validator runs; either way the external files are fetched here.
   */
  inspectModel?: typeof inspectModel
}

export interface AssetCheckerStats {
  /** Distinct files asked for. */
  asked: number
  /** Of those, checked to the end (whatever the outcome). */
  done: number
  /** Of those, answered 304 and taken from the cache. */
  unchanged: number
}

export interface AssetChecker {
  /** The outcome for `url` read as `asset`, checked once a run whoever asks. */
  check(url: string, asset: AssetClass): Promise<AssetOutcome>
  readonly stats: Readonly<AssetCheckerStats>
}

export function createAssetChecker(options: AssetCheckerOptions): AssetChecker {
  const now = options.now ?? Date.now
  const outcomes = new Map<string, Promise<AssetOutcome>>()
  const stats: AssetCheckerStats = { asked: 0, done: 0, unchanged: 0 }
  const turn = limiter(Math.max(1, options.concurrency))
  const readModel = options.inspectModel ?? inspectModel
  const maxBytes = (asset: AssetClass) =>
    asset === 'model' ? options.budgets.modelBytes.maximum : options.budgets.pictureBytes.maximum
  const fetchOptions = (asset: AssetClass, bytes: number) => assetFetchOptions(options, asset, bytes)
  // The deadline of a model and its files, in proportion to one file's time when that is set.
  const modelDeadlineMs = ((options.timeoutMs ?? ASSET_TIMEOUT_MS) / ASSET_TIMEOUT_MS) * MODEL_DEADLINE_MS

  /** The kept finding, if it and every file it read are unchanged on the server. */
  async function revalidated(url: string, kept: CachedCheck, asset: AssetClass) {
    const main = await guardedFetchRevalidating(url, fetchOptions(asset, maxBytes(asset)), kept.validators)
    if (!main.notModified) return { fresh: main }
    for (const dependency of kept.dependencies) {
      const again = await guardedFetchRevalidating(
        dependency.url,
        fetchOptions(asset, maxBytes(asset)),
        dependency.validators,
      )
      // One changed: the model is read again whole (a 200 here answered one file, not the model).
      if (!again.notModified) return {}
    }
    return { unchanged: true }
  }

  async function run(key: string, url: string, asset: AssetClass): Promise<AssetOutcome> {
    const kept = options.cache?.get(key)
    try {
      if (kept) {
        const { fresh, unchanged } = await revalidated(url, kept, asset)
        if (unchanged) {
          stats.unchanged++
          options.cache!.set({ ...kept, usedAt: now() })
          return { ...kept.outcome, url }
        }
        if (fresh) return await read(key, url, asset, fresh.bytes, fresh.servedType, fresh.validators)
      }
      const fetched = await guardedFetchRevalidating(url, fetchOptions(asset, maxBytes(asset)))
      if (fetched.notModified) throw new Error('an unconditional request was answered "not modified"')
      return await read(key, url, asset, fetched.bytes, fetched.servedType, fetched.validators)
    } catch (error) {
      return failedOutcome(url, asset, error, maxBytes(asset))
    }
  }

  async function read(
    key: string,
    url: string,
    asset: AssetClass,
    bytes: Uint8Array,
    servedType: string,
    validators: Validators,
  ): Promise<AssetOutcome> {
    const dependencies: CachedCheck['dependencies'] = []
    const deadline = performance.now() + modelDeadlineMs
    const outcome =
      asset === 'picture'
        ? inspectPicture(url, bytes, servedType)
        : await readModel(url, bytes, {
            url,
            maxBytes: maxBytes('model'),
            maxExternalFiles: MAX_EXTERNAL_FILES,
            async loadExternal(address, limit) {
              const left = Math.floor(deadline - performance.now())
              if (left <= 0)
                throw new Error(`the model and its files took longer than ${modelDeadlineMs / 1000} seconds.`)
              const fetched = await guardedFetchRevalidating(address, {
                ...fetchOptions('model', limit),
                timeoutMs: Math.min(left, options.timeoutMs ?? ASSET_TIMEOUT_MS),
              })
              if (fetched.notModified) throw new Error('an unconditional request was answered "not modified"')
              dependencies.push({ url: address, validators: fetched.validators })
              return fetched.bytes
            },
          })
    // Kept only when every file it read can be asked about again, and none failed (a missing
    // external file may be there next time, and nothing would ask).
    const askable = (kept: Validators) => Boolean(kept.etag || kept.lastModified)
    if (
      options.cache &&
      askable(validators) &&
      dependencies.every((dependency) => askable(dependency.validators)) &&
      !outcome.problems.some((problem) => problem.code === 'external-file')
    ) {
      options.cache.set({ key, validators, dependencies, outcome, usedAt: now() })
    }
    return outcome
  }

  return {
    stats,
    check(url, asset) {
      const key = `${asset} ${normaliseAddress(url) ?? url}`
      let outcome = outcomes.get(key)
      if (!outcome) {
        stats.asked++
        outcome = turn(() => run(key, url, asset)).finally(() => void stats.done++)
        outcomes.set(key, outcome)
      }
      return outcome
    },
  }
}

/** Runs at most `slots` tasks at once, the others waiting in the order they came. */
function limiter(slots: number) {
  let running = 0
  const waiting: (() => void)[] = []
  return async function turn<T>(task: () => Promise<T>): Promise<T> {
    // A slot that ends is handed to the next in line as it is, so none is taken in between.
    if (running >= slots) await new Promise<void>((start) => waiting.push(start))
    else running++
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else running--
    }
  }
}
