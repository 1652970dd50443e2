import type { Reconciled, ReplacedId } from '../db/sync-reconcile.ts'
import { count, counted } from './counting.ts'

/**
 * What the Sync page says of the platform's ids of created SKUs (issue #34), in one place for the
 * reconcile panel, its dialog and the store's outcome: an id is what an update is sent to, and the
 * one way to learn it, when the bulk upload's answer did not say, is a list from the platform.
 */

/** Drafts named at most in a sentence: the count says how many more there are. */
const NAMED = 5

/** "12 SKUs created on Production have no platform id: they cannot be updated until …". */
export function withoutIdsWords(n: number, place: string): string {
  const one = n === 1
  return (
    `${counted(n, 'SKU')} created on ${place} ${one ? 'has' : 'have'} no platform id: ` +
    `${one ? 'it' : 'they'} cannot be updated until you import a list from the platform with ` +
    `${one ? 'its id' : 'their ids'}.`
  )
}

/** "8901 (kept a1, the list has b2), …": the drafts whose kept id the list's replaces, a few by name. */
export function replacedWords(replaced: readonly Pick<ReplacedId, 'barcode' | 'was' | 'now'>[]): string {
  const named = replaced
    .slice(0, NAMED)
    .map(({ barcode, was, now }) => `${barcode || '(no barcode)'} (kept ${was}, the list has ${now})`)
  const more = replaced.length - named.length
  return more > 0 ? `${named.join(', ')} and ${count(more)} more` : named.join(', ')
}

/** What a confirmed list did with its ids, in words; empty when it set none. */
export function idsOutcome(result: Pick<Reconciled, 'ids' | 'replaced'>, place: string): string {
  if (result.ids === 0) return ''
  const one = result.ids === 1
  const lines = [
    `${counted(result.ids, 'SKU')} on ${place} got ${one ? 'its' : 'their'} platform id from the list: ` +
      `${one ? 'it' : 'they'} can be updated.`,
  ]
  const { replaced } = result
  if (replaced.length > 0)
    lines.push(
      `${count(replaced.length)} of them kept another id, which the list’s replaced (the platform shows it now): ` +
        `${replacedWords(replaced)}.`,
    )
  return lines.join(' ')
}
