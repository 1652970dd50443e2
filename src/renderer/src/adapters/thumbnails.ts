import { thumbnailAddress } from '#shared/thumbnail-address.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/**
 * The list's photos, which main fetches for the page (src/node/thumbnail-route.ts): an <img> asks
 * for them at a path of the app's own origin, so the browser's lazy loading decides when. An
 * <img> cannot read why it failed; main answers a refusal with its reason in words, so the tile
 * asks the same address with fetch and reads them (main answers it from its cache).
 */

export { thumbnailAddress }

/**
 * Why each photo was not shown, by its address: a row drawn again while scrolling says so at once
 * instead of asking again. A few thousand short sentences at most, each for a minute, as long as
 * main keeps a refusal: a server that was down may be up by then.
 */
const MAX_KEPT = 2_000
const KEPT_MS = 60_000
const refusals = new Map<string, { words: string; until: number }>()

export function knownRefusal(photo: string): string | undefined {
  const kept = refusals.get(photo)
  if (kept && kept.until > systemClock.now()) return kept.words
  refusals.delete(photo)
  return undefined
}

const FALLBACK = 'Not loaded: the photo could not be shown'
/** Main's words are short; anything longer is not main's. */
const MAX_WORDS = 400

/** Main's reason for not showing the photo at `photo` (its thumbnail failed to load). */
export async function refusalOf(photo: string): Promise<string> {
  const kept = knownRefusal(photo)
  if (kept) return kept
  let words = FALLBACK
  try {
    const answer = await fetch(thumbnailAddress(photo))
    const text = answer.ok ? '' : (await answer.text()).trim()
    if (text.startsWith('Not loaded') && text.length <= MAX_WORDS) words = text
  } catch {
    // Main did not answer at all: the fallback says what is known.
  }
  if (refusals.size >= MAX_KEPT) refusals.delete(refusals.keys().next().value!)
  refusals.set(photo, { words, until: systemClock.now() + KEPT_MS })
  return words
}

/** Forgets every reason: what main may fetch changed (Allow local addresses), so each may load now. */
export function forgetThumbnailRefusals(): void {
  refusals.clear()
}
