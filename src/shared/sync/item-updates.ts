import type { Outcome } from '../service/outcome.ts'
import type { ItemUpdate, OutboxItem } from './ports.ts'

/**
 * What an outcome means for the items of its request, per the outcome table of the architecture
 * guide. Only terminal states and `queued` are written: `sending` is the outbox's own business.
 */

/** Items that provably were not processed go back to `queued`, to be sent again. */
export function backToQueue(items: readonly OutboxItem[]): ItemUpdate[] {
  return items.map((item) => ({ key: item.key, state: 'queued' }))
}

export function settled(
  items: readonly OutboxItem[],
  state: 'failed' | 'unknown' | 'rejected',
  message: string,
): ItemUpdate[] {
  return items.map((item) => ({ key: item.key, state, message }))
}

/**
 * Why a lone item was refused: the service's own message, then its per-field problems with the
 * `skus.0.` of a one-item batch taken off so the path reads as the SKU's own field.
 */
export function rejectionMessage(outcome: Outcome): string {
  const said = outcome.serviceMessage ?? outcome.message
  const problems = (outcome.problems ?? []).slice(0, 5).map((problem) => {
    const path = problem.path.replace(/^skus\.0(\.|$)/, '')
    return path ? `${path}: ${problem.message}` : problem.message
  })
  return problems.length > 0 ? `${said} (${problems.join('; ')})` : said
}
