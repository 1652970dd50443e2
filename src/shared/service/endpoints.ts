/** The contract's two operations; the version is part of the path. */
export const BULK_UPLOAD_PATH = '/service/platform/misc/v2.0/skus/bulk-upload'
export const CREATE_APP_PATH = '/service/platform/misc/v1.0/apps'

/** Joins a profile's base URL (which may carry a path prefix) and an operation's path. */
export function endpointUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + path
}
