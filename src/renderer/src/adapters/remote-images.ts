import { failureText, forgetPreviewAsset, loadPreviewAsset } from './preview-assets.ts'

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
  /** The picture's size once loaded. */
  bytes: number
}

/**
 * Blobs kept when no image shows them, least recently released first: a couple of dozen, and no
 * more than the asset cache's budget's worth (a picture may be up to 50 MB).
 */
export const KEPT_UNUSED = { count: 24, bytes: 100 * 1024 * 1024 }

const entries = new Map<string, Entry>()

async function pictureAt(address: string): Promise<Blob> {
  const asset = await loadPreviewAsset({ source: 'url', url: address })
  if (!asset.contentType.startsWith('image/')) {
    throw new Error(`${asset.name} is not a picture (${asset.contentType})`)
  }
  return new Blob([asset.bytes as BlobPart], { type: asset.contentType })
}

function load(address: string): Entry {
  const entry: Entry = {
    url: pictureAt(address).then((picture) => {
      entry.bytes = picture.size
      return URL.createObjectURL(picture)
    }),
    users: 0,
    bytes: 0,
  }
  entry.url.catch(() => {
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
        revokeUnusedBeyondBudget()
      }
    },
  }
}

function revokeUnusedBeyondBudget() {
  const unused = [...entries.values()].filter((entry) => entry.users === 0)
  let count = unused.length
  let bytes = unused.reduce((sum, entry) => sum + entry.bytes, 0)
  for (const [address, entry] of entries) {
    if (count <= KEPT_UNUSED.count && bytes <= KEPT_UNUSED.bytes) break
    if (entry.users > 0) continue
    entries.delete(address)
    count--
    bytes -= entry.bytes
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
