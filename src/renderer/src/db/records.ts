import type { Sku } from '#shared/schema/sku.ts'
import type { AppCreateRequest } from '#shared/schema/app.ts'
import type { Validity } from '#shared/validation/problem.ts'
import type { DraftSync } from '#shared/sync/standing.ts'
import type { AssetCheck, AssetStatus } from '#shared/asset-checks/results.ts'
import type { Replacement } from '#shared/values/replace-text.ts'

/** What every stored draft carries besides its payload. */
export interface DraftMeta {
  id: string
  createdAt: number
  updatedAt: number
  validity: Validity
  errorCount: number
  warningCount: number
  /** Where it stands with each destination it was sent to (src/shared/sync/standing.ts). */
  sync: DraftSync
  /** Derived from `sync` on every write: the multi-entry index the list and the pre-flight read. */
  standing: string[]
  /**
   * Set on a draft made by "New SKU" or "New app", in the transaction that makes it: how it was
   * born, which with no save since makes it untouched (`isUntouchedNew`, db/untouched-new.ts).
   */
  untouchedNew?: boolean
  /** Where it stands with the team workspace, once it was shared or arrived from it (issue #41). */
  team?: TeamStanding
  /** 1 while it waits to be shared with the workspace, absent otherwise: kept by db/team-waiting.ts. */
  teamWaiting?: 1
}

/**
 * A draft's standing with the team workspace (db/team-exchange.ts). Its `updatedAt` against
 * `sharedAt` says whether this desk edited it since the workspace had it: those are shared next
 * (marked `teamWaiting`, db/team-waiting.ts).
 */
export interface TeamStanding {
  /** The workspace's revision of the version this desk has: what its next edit is based on. */
  rev: string
  /** The draft's `updatedAt` when it was that version here (shared, or arrived). */
  sharedAt: number
  /** Who wrote that version (their workspace user) and when, by their desk's clock. */
  editedBy: string
  editedAt: number
  /** How many other versions are in conflict with it in the workspace (CouchDB keeps them all). */
  conflicts: number
}

/**
 * A draft deleted here that the workspace has (db/team-exchange.ts): its deletion is shared as a
 * version saying "deleted", on the revision the draft had. Kept once shared, with that version's
 * revision, so an undo that puts the draft back is shared on it.
 */
export interface TeamDeletionRecord {
  /** `<kind>:<draft id>`. */
  key: string
  kind: 'skus' | 'apps'
  id: string
  /** The revision the draft had when it was deleted. */
  base: string
  deletedAt: number
  /** The deletion's revision in the workspace, once shared. */
  rev?: string
}

/**
 * Where the exchange with the team workspace stands (one row, `exchange`): the workspace it is
 * about and the replica's sequence the next arrivals are asked from, written in the transaction
 * that applies what came before it, so a crash replays from where the drafts are. (A database of
 * version 13 also holds `sharedFrom`, which the waiting mark replaced.)
 */
export interface TeamExchangeRecord {
  key: 'exchange'
  /** The workspace's address the rest is about (absent before a first join). */
  workspace?: string
  since: string
}

/**
 * A SKU draft. `payload` is exactly what the user wrote (unknown fields included) and is what
 * will be sent; the other columns are derived from it on every save, for indexes and the list.
 */
export interface SkuDraftRecord extends DraftMeta {
  payload: Sku
  productName: string
  brand: string
  barcode: string
  category: string
  subCategory: string
  status: string
  /** Lower-case words of name, brand and barcode: the multi-entry search index. */
  terms: string[]
  /** The gate fields it leaves empty, and `empty` (src/shared/sync/send-gates.ts): a multi-entry index. */
  gaps: string[]
}

/**
 * What undoing a bulk action puts back. The entries of the actions in the undo history are kept
 * (`SkuActionRecord`; the oldest go beyond its budget, sku-undo-log.ts). An entry is one draft the
 * action touched (`id` is the draft's), or, for an import, the drafts one chunk created (`id` starts
 * with `~created:`, sorting after every draft id, and `created` lists them): one row a chunk instead
 * of one a draft keeps the import's writes close to the raw cost.
 */
export interface SkuUndoRecord {
  /** The bulk action, shared by all its entries. */
  batch: string
  id: string
  /** The draft as it was; absent when the action created it (a duplicate). */
  before?: SkuDraftRecord
  /** The drafts one import chunk created. */
  created?: string[]
  /** The `updatedAt` the action wrote: a draft edited since then is left as it is by undo. */
  writtenAt?: number
}

/** What a bulk action on SKU drafts did, as the undo history names it. */
export type SkuActionKind = 'set-field' | 'duplicate' | 'delete' | 'import'

/**
 * What the history says of an action, as a key and what the words need (words/undo.ts makes them
 * where the history is shown): the data keeps no English. `count` is the action's own.
 */
export type SkuActionName =
  /** A field set on the drafts (`path`, as the bulk fields name it), or removed from them. */
  | { key: 'set-field'; path: string; removed: boolean }
  /** Text found and replaced in a field, anywhere or at its start. */
  | ({ key: 'replace'; path: string } & Replacement)
  /** A field set before the history named its actions (version 8's upgrade): which is not known. */
  | { key: 'changed-field' }
  | { key: 'duplicate' }
  | { key: 'delete' }
  /** An import, from the file named when it is known. */
  | { key: 'import'; file?: string }
  /** A label stored before version 12 that no key reads: kept as it was written. */
  | { key: 'other'; text: string }

/**
 * One action of the undo history: its undo entries are those of its `batch` in `skuUndo`. Undone
 * newest first, so an older action never puts back what a newer one changed.
 */
export interface SkuActionRecord {
  /** The order of the actions, given by the database: two in the same millisecond still come in turn. */
  seq?: number
  batch: string
  kind: SkuActionKind
  /** What the history calls it ("Set Category on 42 drafts" is `{ key: 'set-field', path: 'category' }`). */
  name: SkuActionName
  /** Drafts changed, copied or deleted; for an import, the rows that created or updated a draft. */
  count: number
  /** When it was done (an import: when its first rows were written). */
  at: number
  /** Whole drafts its undo entries keep (`before`): what the history's budget counts. */
  kept: number
  /** An import still writing its chunks: not undoable from the history until its last one. */
  writing?: boolean
}

/**
 * An app draft. Once sync created the app on a destination, the draft's standing there also keeps
 * what that service said: its id, when the answer came, and the `app` it returned, to compare with
 * what was sent (`DestinationStanding`).
 */
export interface AppDraftRecord extends DraftMeta {
  payload: AppCreateRequest
  name: string
}

/** What the last "Check assets" found for one SKU draft (src/shared/asset-checks/). */
export interface AssetCheckRecord {
  /** The draft's id. */
  id: string
  checkedAt: number
  /** The worst of its assets' statuses; 'ok' when it names none. */
  status: AssetStatus
  /** Each asset the draft named then, with the field naming it, in the contract's order. */
  assets: Array<AssetCheck & { field: string }>
}
