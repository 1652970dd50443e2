import { Dexie, type DexieOptions, type EntityTable, type Table } from 'dexie'
import type {
  AppDraftRecord,
  AssetCheckRecord,
  SkuActionRecord,
  SkuDraftRecord,
  SkuUndoRecord,
  TeamDeletionRecord,
  TeamExchangeRecord,
} from './records.ts'
import type { SyncItemRecord, SyncRequestRecord, SyncRunRecord } from './sync-records.ts'
import { barcodeParts, searchTerms } from '#shared/search-terms.ts'
import { textOf } from '#shared/text-of.ts'
import { upgradeToCheckDigits } from './check-digit-upgrade.ts'
import { upgradeToDestinations } from './destination-upgrade.ts'
import { skuGaps } from '#shared/sync/send-gates.ts'
import { upgradeToUndoHistory } from './undo-history-upgrade.ts'
import { upgradeToActionNames } from './undo-name-upgrade.ts'
import { upgradeToUpdates } from './updates-upgrade.ts'
import { teamWaitingMark, upgradeToWaitingMarks } from './team-waiting.ts'

export const DATABASE_NAME = 'catalog-desk'

/**
 * The local store. Each schema version stays listed forever: Dexie upgrades a database from
 * whatever version a user's machine holds, running every later version's upgrade in order.
 */
export class CatalogDatabase extends Dexie {
  skuDrafts!: EntityTable<SkuDraftRecord, 'id'>
  appDrafts!: EntityTable<AppDraftRecord, 'id'>
  skuUndo!: Table<SkuUndoRecord, [batch: string, id: string]>
  skuActions!: Table<SkuActionRecord, number>
  syncRuns!: EntityTable<SyncRunRecord, 'id'>
  syncItems!: Table<SyncItemRecord, [run: string, position: number]>
  syncRequests!: EntityTable<SyncRequestRecord, 'id'>
  assetChecks!: EntityTable<AssetCheckRecord, 'id'>
  teamExchange!: EntityTable<TeamExchangeRecord, 'key'>
  teamDeletions!: EntityTable<TeamDeletionRecord, 'key'>

  /** `options`: Dexie's, e.g. the durability of a connection's transactions (see import-connection.ts). */
  constructor(name = DATABASE_NAME, options?: DexieOptions) {
    super(name, options)
    this.version(1).stores({
      skuDrafts: 'id, updatedAt, productName, brand, barcode, category, status, validity, syncState',
      appDrafts: 'id, updatedAt, name, syncState',
    })
    // v2: word search over name, brand and barcode, and filtering by sub-category.
    this.version(2)
      .stores({
        skuDrafts:
          'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, syncState, *terms',
      })
      .upgrade((tx) =>
        tx
          .table<SkuDraftRecord, string>('skuDrafts')
          .toCollection()
          .modify((draft) => {
            draft.subCategory = typeof draft.payload.subCategory === 'string' ? draft.payload.subCategory : ''
            draft.terms = searchTerms(draft.productName, draft.brand, draft.barcode)
          }),
      )
    // v3: what the last bulk action changed, so it can be undone exactly. Kept in the database
    // rather than in memory: the drafts a 100,000-draft delete removed weigh ~185 MB as objects.
    // A new, empty table: there is nothing of older versions to carry over.
    this.version(3).stores({ skuUndo: '[batch+id], batch' })
    // v4: the sync outbox. New tables only (the drafts' indexes stay as they are: import speed
    // depends on their number). An item is keyed by its place in its run; `[run+state+position]`
    // reads a run's queued items after a position and counts a run's items by state, `[run+key]`
    // finds the item of a draft, `key` every run a draft was in.
    this.version(4).stores({
      syncRuns: 'id, createdAt, state',
      syncItems: '[run+position], [run+state+position], [run+key], key',
      syncRequests: 'id, [runId+startedAt]',
    })
    // v5: sync state per destination. A draft's one `syncState` becomes its standing at each
    // destination it was sent to (`sync`), indexed by the multi-entry `standing`; each run records
    // its destination. The upgrade moves today's state to the destination of the run that set it.
    this.version(5)
      .stores({
        skuDrafts:
          'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, *standing, *terms',
        appDrafts: 'id, updatedAt, name, *standing',
        syncRuns: 'id, createdAt, state, destination',
      })
      .upgrade(upgradeToDestinations)
    // v6: the gates before sending (src/shared/sync/send-gates.ts). Each SKU draft keeps the gate
    // fields it leaves empty (`gaps`, multi-entry), so the pre-flight finds what a profile holds
    // back on an index; a draft that lacks nothing has no entry there, which keeps imports of
    // complete rows as fast as before.
    this.version(6)
      .stores({
        skuDrafts:
          'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, *standing, *terms, *gaps',
      })
      .upgrade((tx) =>
        tx
          .table<SkuDraftRecord, string>('skuDrafts')
          .toCollection()
          .modify((draft) => {
            draft.gaps = skuGaps(draft.payload)
          }),
      )
    // v7: what the last "Check assets" found for each SKU draft, keyed by the draft's id. A table
    // of its own, not columns of the draft: a check never rewrites a draft (nor its indexes, which
    // every import pays for), and `status` indexes only the drafts that were checked.
    this.version(7).stores({ assetChecks: 'id, status, checkedAt' })
    // v8: the undo history. Each bulk action or import is a row of `skuActions` (its label, count
    // and time) over its batch of `skuUndo` entries, which no longer holds only the last one. Keyed
    // by an increasing number, the order actions are undone in; `batch` is unique. The upgrade
    // names the one batch the table held, so the undo a person had is still there.
    this.version(8).stores({ skuActions: '++seq, &batch' }).upgrade(upgradeToUndoHistory)
    // v9: SKU updates. No new index: a SKU created somewhere gains tags in `standing` (changed
    // since sent there, no platform id, gone) and its standing what stands there (`sent`).
    this.version(9).stores({}).upgrade(upgradeToUpdates)
    // v10: a barcode whose GTIN check digit is wrong is a `gaps` entry (`check-digit`), which a
    // profile may hold back. No new index: only drafts with such a barcode gain an entry.
    this.version(10).stores({}).upgrade(upgradeToCheckDigits)
    // v11: a barcode is found by any part of it (issue #37): its search words gain the parts a
    // search finds it by (`barcodeParts`). No new index: `terms` holds them. A draft whose barcode
    // has none (short, or not digits) is not written again.
    this.version(11)
      .stores({})
      .upgrade((tx) =>
        tx
          .table<SkuDraftRecord, string>('skuDrafts')
          .toCollection()
          .modify((draft) => {
            const parts = barcodeParts(textOf(draft.barcode))
            if (parts.length) draft.terms = [...new Set([...draft.terms, ...parts])]
          }),
      )
    // v12: the undo history keeps a key for each action and what its words need, not the words
    // (issue #40): a label stored before becomes its key, or one kept word for word. No new index.
    this.version(12).stores({}).upgrade(upgradeToActionNames)
    // v13: the team workspace (issue #41). Drafts gain `team` (their revision there, who edited
    // it, their conflicts; not indexed: found by `updatedAt`), `teamExchange` keeps where the
    // exchange stands and `teamDeletions` the drafts deleted here that the workspace has. Nothing
    // to upgrade: no draft has been shared yet.
    this.version(13).stores({ teamExchange: 'key', teamDeletions: 'key' })
    // v14: the drafts waiting to be shared are marked (`teamWaiting`, db/team-waiting.ts) and
    // indexed, so the exchange no longer reads every draft that arrived to find them. A desk
    // joined to a workspace marks the drafts that wait; one never joined has nothing to mark
    // (joining marks every draft: `forWorkspace`).
    this.version(14)
      .stores({
        skuDrafts:
          'id, updatedAt, productName, brand, barcode, category, subCategory, status, validity, *standing, *terms, *gaps, teamWaiting',
        appDrafts: 'id, updatedAt, name, *standing, teamWaiting',
      })
      .upgrade(upgradeToWaitingMarks)
    this.use(teamWaitingMark)
  }
}
