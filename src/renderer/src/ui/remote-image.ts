import { failureText, forgetPreviewAsset, loadPreviewAsset } from './asset-cache.ts'

/**
 * Pictures at web addresses, fetched through main (`loadPreviewAsset`: the renderer fetches
 * nothing itself) and shown from blob: addresses. One blob per address while it is shown, so a
 * picture in the form and in the preview is downloaded and held once. A blob no image shows any
 * more is kept for a while (the person may type the address back) and then revoked, so a long
 * session of typing addresses does not hold every picture it ever showed.
 */
interface Entry {
  url: Promise<string>
  /** Images showing it now: an entry in use is never revoked. */
  users: number
}

/** Blobs kept when no image shows them, least recently released first. */
const KEPT_UNUSED = 24

const entries = new Map<string, Entry>()

function load(address: string): Entry {
  const url = loadPreviewAsset({ source: 'url', url: address }).then((asset) => {
    if (!asset.contentType.startsWith('image/')) {
      throw new Error(`${asset.name} is not a picture (${asset.contentType})`)
    }
    return URL.createObjectURL(new Blob([asset.bytes as BlobPart], { type: asset.contentType }))
  })
  const entry: Entry = { url, users: 0 }
  url.catch(() => {
    if (entries.get(address) === entry) entries.delete(address)
  })
  return entry
}

/** A picture held for one image: its blob address, and how to give it back (once is enough). */
export interface HeldImage {
  url: Promise<string>
  release(): void
}

/** The blob address of the picture at `address`, held until `release()`, also when it failed. */
export function holdRemoteImage(address: string): HeldImage {
  const entry = entries.get(address) ?? load(address)
  // Most recently used last: unused entries are revoked oldest first.
  entries.delete(address)
  entries.set(address, entry)
  entry.users++
  let held = true
  return {
    url: entry.url,
    release() {
      if (!held) return
      held = false
      entry.users--
      // A failed entry has left the map already; one still there waits for reuse, or its turn.
      if (entry.users === 0 && entries.get(address) === entry) {
        entries.delete(address)
        entries.set(address, entry)
        revokeUnusedBeyond(KEPT_UNUSED)
      }
    },
  }
}

function revokeUnusedBeyond(kept: number) {
  let unused = [...entries.values()].filter((entry) => entry.users === 0).length
  for (const [address, entry] of entries) {
    if (unused <= kept) break
    if (entry.users > 0) continue
    entries.delete(address)
    unused--
    entry.url.then(URL.revokeObjectURL, () => {})
  }
}

export { failureText }

/**
 * Forgets a failed address, so the next hold asks main again (after "Try again"). The failed
 * blob promise has already left this map; main's answer is still in the asset cache.
 */
export function forgetRemoteImage(address: string): void {
  forgetPreviewAsset({ source: 'url', url: address })
}
