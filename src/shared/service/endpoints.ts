/** The contract's two operations and the update its public docs add; the version is part of the path. */
export const BULK_UPLOAD_PATH = '/service/platform/misc/v2.0/skus/bulk-upload'
export const CREATE_APP_PATH = '/service/platform/misc/v1.0/apps'
/** A SKU's partial update; `{skuId}` is the platform's id of the SKU (see operations.ts). */
export const SKU_UPDATE_PATH = '/service/platform/misc/v2.0/skus/{skuId}'

/**
 * An operation's address under a profile's base URL (which may carry a path prefix). Built with
 * the URL API and with the base's query and fragment dropped, so nothing in a base URL, however
 * it slipped past the profile's checks, can move the operation's path: the request goes to
 * exactly `<base path>` + `path` on the base's host. Undefined when the base is not an address.
 */
export function endpointUrl(baseUrl: string, path: string): string | undefined {
  const url = URL.parse(baseUrl)
  if (!url) return undefined
  url.search = ''
  url.hash = ''
  url.pathname = url.pathname.replace(/\/+$/, '') + path
  return url.href
}
