import { formatBytes } from '#shared/byte-size.ts'
import type { AssetClass, AssetOutcome } from '#shared/asset-checks/results.ts'
import { FetchError, type GuardedFetchOptions } from '../net/guarded-fetch.ts'

/**
 * How the asset checks download: through the one guarded fetcher (net/guarded-fetch.ts), with its
 * rules for addresses that came from data (http and https only, no credentials, no address on
 * this computer or a local network unless allowed, redirects checked the same way), every media
 * type taken (the checks read what the bytes are; a web page at a model's address is said as
 * such), and a size limit per file.
 */
export interface AssetFetchSettings {
  /** Whether local addresses may be fetched (the app's setting, the CLI's --allow-local). */
  allowLocalAddresses: () => boolean
  /** How a refusal of a local address says to allow it (the CLI names its flag). */
  allowHint?: string
  /** For the whole download of one file, redirects included. */
  timeoutMs?: number
  /** For tests that stand in for the internet on loopback. */
  network?: GuardedFetchOptions['network']
}

/** A file on a slow CDN may take a while; one that takes longer than this is not going to load on a phone either. */
export const ASSET_TIMEOUT_MS = 30_000
/**
 * A model and its external files, all told: a .gltf naming 32 slow files would otherwise hold its
 * turn for 32 × 30 seconds. Our own choice: four times one file's time.
 */
export const MODEL_DEADLINE_MS = 4 * ASSET_TIMEOUT_MS
/** Enough for a CDN's http → https → signed-address hops; more looks like a loop (the preview's limit too). */
export const MAX_ASSET_REDIRECTS = 3
/**
 * External files (buffers, images) a .gltf may name, at most. Real models name a handful (one
 * buffer, a few textures); a hostile one could name thousands, each a request from this computer.
 */
export const MAX_EXTERNAL_FILES = 32

/**
 * Files checked at once: a few, since each is a download and a validation on this computer's CPU
 * (the CLI's --concurrency); more than 16 is a burst a CDN may throttle.
 */
export const CONCURRENCY = { min: 1, max: 16, default: 4 } as const

const ACCEPT: Record<AssetClass, string> = {
  model: 'model/gltf-binary, model/gltf+json;q=0.9, */*;q=0.5',
  picture: 'image/*, */*;q=0.5',
}

export function assetFetchOptions(
  settings: AssetFetchSettings,
  asset: AssetClass,
  maxBytes: number,
): GuardedFetchOptions {
  return {
    allowLocalAddresses: settings.allowLocalAddresses,
    allowHint: settings.allowHint,
    maxBytes,
    timeoutMs: settings.timeoutMs ?? ASSET_TIMEOUT_MS,
    maxRedirects: MAX_ASSET_REDIRECTS,
    mediaTypes: 'any',
    typesByExtension: {},
    accept: ACCEPT[asset],
    network: settings.network,
  }
}

/**
 * A download that failed, as the asset's outcome: a file over the size limit is over the budget's
 * maximum (nothing more of it is read), an address refused is said as refused, anything else as
 * unreachable, each in the fetcher's words (which name the address and why).
 */
export function failedOutcome(
  url: string,
  asset: AssetClass,
  error: unknown,
  maxBytes: number,
): AssetOutcome {
  const noun = asset === 'model' ? 'model' : 'picture'
  if (error instanceof FetchError && error.code === 'too-large') {
    const size = error.declaredBytes
    return {
      url,
      class: asset,
      problems: [
        {
          severity: 'error',
          code: asset === 'model' ? 'over-budget-model-size' : 'over-budget-picture-size',
          message:
            size !== undefined
              ? `The ${noun} is ${formatBytes(size)}, over the maximum of ${formatBytes(maxBytes)}: it was not downloaded.`
              : `The ${noun} is over the maximum of ${formatBytes(maxBytes)}: its download was stopped there.`,
        },
      ],
    }
  }
  const code =
    error instanceof FetchError
      ? error.code === 'refused'
        ? 'refused-address'
        : 'unreachable'
      : 'check-failed'
  const message = error instanceof Error ? error.message : String(error)
  return { url, class: asset, problems: [{ severity: 'error', code, message }] }
}
