import type { Table, Transaction } from 'dexie'
import { payloadFingerprint } from '#shared/payload-fingerprint.ts'
import { standingTags, UNRECORDED, type DestinationStanding, type DraftSync } from '#shared/sync/standing.ts'
import type { SkuDraftRecord } from './records.ts'
import type { SyncItemRecord } from './sync-records.ts'

/**
 * Database v9: SKU updates. Each SKU draft created somewhere gets, on its standing there, the
 * fingerprint of what stands there (`sent`): its creation item's kept payload. A draft whose item
 * kept none (sent by a version before payloads were kept) has nothing to compare with: if it was
 * not edited after it was created there, what it is now is what was sent; if it was, it counts as
 * changed (`UNRECORDED`), and its update sends the whole SKU. Its `standing` tags are derived again
 * (`changed`, `no-id`): every SKU created before this version has no platform id, since no answer
 * carried one before.
 */
export async function upgradeToUpdates(tx: Transaction): Promise<void> {
  const items = tx.table<SyncItemRecord, [string, number]>('syncItems')
  const table = tx.table<SkuDraftRecord, string>('skuDrafts')
  // Dexie's `modify` cannot await reads: the drafts are read a page at a time (never all of a
  // 100,000-draft store at once), and those created somewhere written again.
  let after = ''
  for (;;) {
    const page = await table.where(':id').above(after).limit(UPGRADE_PAGE).toArray()
    if (page.length === 0) break
    after = page.at(-1)!.id
    await upgradePage(page.filter(createdSomewhere), items, table)
    if (page.length < UPGRADE_PAGE) break
  }
}

const UPGRADE_PAGE = 2_000

function createdSomewhere(draft: SkuDraftRecord): boolean {
  return Object.values(draft.sync ?? {}).some((standing) => standing.state === 'synced')
}

async function upgradePage(
  drafts: readonly SkuDraftRecord[],
  items: Table<SyncItemRecord, [string, number]>,
  table: Table<SkuDraftRecord, string>,
): Promise<void> {
  for (const draft of drafts) {
    const sync: Record<string, DestinationStanding> = {}
    for (const [destination, standing] of Object.entries(draft.sync)) {
      if (standing.state !== 'synced' || standing.sent !== undefined) {
        sync[destination] = standing
        continue
      }
      const kept = (await items.get([standing.run, standing.position]))?.sent
      const sent =
        kept !== undefined
          ? payloadFingerprint(kept)
          : draft.updatedAt <= standing.at
            ? payloadFingerprint(draft.payload)
            : UNRECORDED
      sync[destination] = { ...standing, sent }
    }
    const next: DraftSync = sync
    await table.update(draft.id, { sync: next, standing: standingTags(next, draft.payload) })
  }
}
