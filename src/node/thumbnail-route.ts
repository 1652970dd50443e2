import { formatBytes } from '#shared/byte-size.ts'
import { sniff } from '#shared/asset-checks/picture-sniff.ts'
import { isSampleAddress } from '#shared/sample-assets.ts'
import { THUMBNAIL_SOURCE_PARAMETER } from '#shared/thumbnail-address.ts'
import { appHeaders, plainAnswer } from './app-files.ts'
import { FetchError, guardedFetch, type GuardedFetchOptions } from './net/guarded-fetch.ts'
import { loadSampleAddress } from './preview-assets.ts'
import { ThumbnailCache, type ThumbnailAnswer, type ThumbnailCacheBounds } from './thumbnail-cache.ts'

/**
 * The SKU list's photos, fetched by main for the page (see src/shared/thumbnail-address.ts). The
 * addresses come from imported sheets, so they are fetched with the guarded fetcher: nothing on
 * this computer or the local network unless "Allow local addresses" is on, and the photo's host
 * never learns the page's address or anything the page could send. Only pictures are served
 * (their bytes are sniffed, whatever the server called them), as the type their bytes say, and a
 * refusal is answered in words the tile shows: the page cannot read why an <img> failed, so it
 * asks the same address again with fetch and reads the answer's text. A sample address (the
 * template's: src/shared/sample-assets.ts) is answered with the bundled sample picture, never fetched.
 */
export interface ThumbnailRouteOptions {
  /** The page's Content-Security-Policy, sent with every answer. */
  policy: string
  /** The "Allow local addresses" setting, read on every request. */
  allowLocalAddresses: () => boolean
  /** The app's `resources` folder, whose `preview/` holds the sample picture. */
  resourcesDir: string
  /** A larger photo is cut off while it streams in and refused. */
  maxPictureBytes?: number
  timeoutMs?: number
  cache?: Partial<ThumbnailCacheBounds>
  /** For tests: the clock the cache's lifetimes are read on. */
  now?: () => number
  /** For tests that stand in for the internet on loopback. */
  network?: GuardedFetchOptions['network']
}

/** A product photo fresh from a camera is 3–8 MB; a thumbnail source larger than that is refused. */
export const MAX_THUMBNAIL_SOURCE_BYTES = 8 * 1024 * 1024
export const THUMBNAIL_TIMEOUT_MS = 15_000
/**
 * 64 MB of photos and 2,000 answers: a few hundred typical product photos (100–300 KB), many
 * screens of the list, within what main may hold beside everything else.
 */
export const THUMBNAIL_CACHE_BOUNDS: ThumbnailCacheBounds = {
  maxEntries: 2_000,
  maxBytes: 64 * 1024 * 1024,
  pictureMs: 30 * 60_000,
  refusalMs: 60_000,
}

/** Pictures an <img> shows. KTX2, Radiance and OpenEXR are pictures too, but no browser draws them. */
const SHOWN_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/svg+xml',
])

/**
 * A thumbnail's answer, if it is ever opened as a document rather than drawn by an <img>: a
 * sandbox of its own origin with no scripts, on top of the page's policy (an SVG is a document).
 */
const PICTURE_POLICY_EXTRA = 'sandbox'

export function thumbnailRoute({
  policy,
  allowLocalAddresses,
  resourcesDir,
  maxPictureBytes = MAX_THUMBNAIL_SOURCE_BYTES,
  timeoutMs = THUMBNAIL_TIMEOUT_MS,
  cache: bounds,
  now,
  network,
}: ThumbnailRouteOptions): (request: Request) => Promise<Response> {
  const cache = new ThumbnailCache({ ...THUMBNAIL_CACHE_BOUNDS, ...bounds }, now)
  /** Downloads under way, so the rows that share a photo (and a fetch after an <img>) wait for one. */
  const underWay = new Map<string, Promise<ThumbnailAnswer>>()

  const download = (src: string, allowLocal: boolean): Promise<{ bytes: Uint8Array }> =>
    // The template's sample picture is the app's own: nothing is fetched for it.
    isSampleAddress(src)
      ? loadSampleAddress(resourcesDir, src)
      : guardedFetch(src, {
          // The setting as this request found it: the answer is kept under it (see `key`).
          allowLocalAddresses: () => allowLocal,
          maxBytes: maxPictureBytes,
          timeoutMs,
          // As for the previews: a CDN's http → https → signed-address hops; more looks like a loop.
          maxRedirects: 3,
          // Whatever the server calls it, or the file's name says: the bytes are sniffed below.
          mediaTypes: 'any',
          typesByExtension: {},
          accept:
            'image/avif, image/webp, image/png, image/jpeg, image/gif, image/svg+xml;q=0.8, image/*;q=0.5',
          network,
        })

  const load = (src: string, allowLocal: boolean): Promise<ThumbnailAnswer> =>
    download(src, allowLocal)
      .then(
        ({ bytes }) => pictureOrRefusal(bytes),
        (error: unknown) => refusalOf(error, maxPictureBytes),
      )
      .catch((): ThumbnailAnswer => ({
        kind: 'refused',
        status: 500,
        words: 'Not loaded: the picture could not be read',
      }))

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plainAnswer(policy, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' })
    }
    const src = URL.parse(request.url)?.searchParams.get(THUMBNAIL_SOURCE_PARAMETER)
    if (!src) return plainAnswer(policy, 400, 'Not loaded: no photo address was given')
    const allowLocal = allowLocalAddresses()
    // An answer given while local addresses were allowed is never served once they are not.
    const key = `${allowLocal ? 'local allowed' : 'public only'} ${src}`
    let answer = cache.get(key)
    if (!answer) {
      let loading = underWay.get(key)
      if (!loading) {
        loading = load(src, allowLocal).then((loaded) => {
          cache.set(key, loaded)
          return loaded
        })
        underWay.set(key, loading)
        void loading.finally(() => underWay.delete(key))
      }
      answer = await loading
    }
    return respond(policy, answer, request.method === 'HEAD')
  }
}

function respond(policy: string, answer: ThumbnailAnswer, head: boolean): Response {
  if (answer.kind === 'refused') return plainAnswer(policy, answer.status, answer.words)
  return new Response(head ? null : (answer.bytes as Uint8Array<ArrayBuffer>), {
    status: 200,
    headers: appHeaders(`${policy}; ${PICTURE_POLICY_EXTRA}`, {
      'Content-Type': answer.type,
      'Content-Length': String(answer.bytes.byteLength),
      // Each showing asks main, whose cache answers at once and knows whether local addresses are
      // still allowed; Chromium's copy is only ever used while that holds.
      'Cache-Control': 'private, no-cache',
    }),
  })
}

function pictureOrRefusal(bytes: Uint8Array): ThumbnailAnswer {
  const kind = sniff(bytes)
  if (kind && SHOWN_TYPES.has(kind.type)) return { kind: 'picture', bytes, type: kind.type }
  const words = !kind
    ? 'Not loaded: not a picture'
    : kind.type.startsWith('image/')
      ? `Not loaded: ${kind.words}, which the list cannot show`
      : `Not loaded: ${kind.words}, not a picture`
  return { kind: 'refused', status: 415, words }
}

/** Statuses by failure: only the words reach a person, the status is for whoever debugs it. */
const STATUS_BY_FAILURE: Record<string, number> = {
  refused: 403,
  'too-large': 413,
  'media-type': 415,
  timeout: 504,
}

/** A failed download in the tile's words: short, and naming the local address when that was why. */
function refusalOf(error: unknown, maxPictureBytes: number): ThumbnailAnswer {
  if (!(error instanceof FetchError)) {
    return { kind: 'refused', status: 502, words: 'Not loaded: the download failed' }
  }
  const status = STATUS_BY_FAILURE[error.code] ?? 502
  // "Could not load <address>: <reason>": the address is the tile's own, the reason is for people.
  const reason = error.message.replace(/^Could not load \S+: /, '')
  const local = /(?:points to|resolves to) (\S+), an address on this computer or a local network/.exec(reason)
  const words =
    error.code === 'refused' && local
      ? `Not loaded: ${reason.startsWith('it was redirected') ? 'redirected to ' : ''}a local address (${local[1]}). Settings can allow local addresses.`
      : error.code === 'too-large'
        ? `Not loaded: too big (over ${formatBytes(maxPictureBytes)})`
        : `Not loaded: ${reason}`
  return { kind: 'refused', status, words }
}
