import type { PreviewAsset, PreviewAssetRequest, TranscodedTexture } from '#shared/ipc.ts'
import { messageOf } from '#shared/error-message.ts'

/**
 * The preview's downloads, kept for the session by address: typing in other fields, reopening a
 * draft or switching between two drafts with the same model does not fetch it again. Failures are
 * kept too (a 404 stays a 404 while the user types elsewhere) until the user asks to try again.
 */

/** A handful of models and environments, within a memory budget (each may be up to 50 MB). */
const MAX_ENTRIES = 8
const MAX_TOTAL_BYTES = 150 * 1024 * 1024

interface Entry {
  asset: Promise<PreviewAsset>
  /** Known once loaded; failures weigh nothing. */
  bytes: number
  failed?: boolean
}

const cache = new Map<string, Entry>()

function keyOf(request: PreviewAssetRequest): string {
  return request.source === 'sample' ? `sample:${request.name}` : `url:${request.url}`
}

/** Drops the least recently used entries beyond the budget, never the one just asked for. */
function trim(keep: string) {
  let total = [...cache.values()].reduce((sum, entry) => sum + entry.bytes, 0)
  for (const [key, entry] of cache) {
    if (cache.size <= MAX_ENTRIES && total <= MAX_TOTAL_BYTES) break
    if (key === keep) continue
    cache.delete(key)
    total -= entry.bytes
  }
}

export function loadPreviewAsset(request: PreviewAssetRequest): Promise<PreviewAsset> {
  const key = keyOf(request)
  const cached = cache.get(key)
  if (cached) {
    // Most recently used last, so the oldest is the first dropped.
    cache.delete(key)
    cache.set(key, cached)
    return cached.asset
  }
  const entry: Entry = { asset: window.api.loadPreviewAsset(request), bytes: 0 }
  cache.set(key, entry)
  trim(key)
  entry.asset.then(
    (asset) => {
      entry.bytes = asset.bytes.byteLength
      trim(key)
    },
    () => (entry.failed = true),
  )
  return entry.asset
}

/** Drops every kept failure: what main may fetch changed (Allow local addresses), so each may load now. */
export function forgetPreviewFailures(): void {
  for (const [key, entry] of cache) if (entry.failed) cache.delete(key)
}

/** Drops a cached result, so the next load asks main again (the "Try again" button). */
export function forgetPreviewAsset(request: PreviewAssetRequest): void {
  cache.delete(keyOf(request))
}

/**
 * The reason of a failed load, without the transport's wrapping: Electron prefixes a rejected
 * invoke with "Error invoking remote method '<channel>': Error: ".
 */
export function failureText(error: unknown): string {
  const message = messageOf(error)
  return message.replace(/^Error invoking remote method '[^']*':\s*/, '').replace(/^(\w*Error):\s*/, '')
}

/**
 * A model's KTX2 texture as pixels, transcoded by main (the transcoder needs what the page's CSP
 * refuses); `load` names the model's load, whose textures main counts against its budget a model.
 */
export function transcodeTexture(bytes: Uint8Array<ArrayBuffer>, load: string): Promise<TranscodedTexture> {
  return window.api.transcodeTexture(bytes, load)
}
