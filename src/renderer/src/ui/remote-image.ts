import { failureText, forgetPreviewAsset, loadPreviewAsset } from './asset-cache.ts'

/**
 * Pictures at web addresses, fetched through main (`loadPreviewAsset`: the renderer fetches
 * nothing itself) and shown from blob: addresses. One blob per address for the session, so a
 * picture shown in the form and in the preview is downloaded once.
 */
const objectUrls = new Map<string, Promise<string>>()

export function remoteImageUrl(address: string): Promise<string> {
  let url = objectUrls.get(address)
  if (!url) {
    url = loadPreviewAsset({ source: 'url', url: address }).then((asset) => {
      if (!asset.contentType.startsWith('image/')) {
        throw new Error(`${asset.name} is not a picture (${asset.contentType})`)
      }
      return URL.createObjectURL(new Blob([asset.bytes as BlobPart], { type: asset.contentType }))
    })
    url.catch(() => objectUrls.delete(address))
    objectUrls.set(address, url)
  }
  return url
}

export { failureText }

/** Forgets a failed address, so the next load asks main again (after "Try again"). */
export function forgetRemoteImage(address: string): void {
  objectUrls.delete(address)
  forgetPreviewAsset({ source: 'url', url: address })
}
