/**
 * The list's photos are never loaded by the page from the addresses drafts name: the page asks
 * its own origin (`app://catalog-desk/thumbnail?src=…`, or the browser tests' http origin), and
 * main fetches the photo through the guarded fetcher (src/node/thumbnail-route.ts). A path of the
 * app's origin rather than a scheme of its own, so the page's `img-src 'self'` covers it and the
 * browser tests, which serve the renderer over http with main's code, serve this route too.
 */
export const THUMBNAIL_PATH = '/thumbnail'
/** The query parameter holding the photo's address. */
export const THUMBNAIL_SOURCE_PARAMETER = 'src'

/** The page-relative address of the thumbnail of the photo at `photo`. */
export function thumbnailAddress(photo: string): string {
  return `${THUMBNAIL_PATH}?${THUMBNAIL_SOURCE_PARAMETER}=${encodeURIComponent(photo)}`
}
