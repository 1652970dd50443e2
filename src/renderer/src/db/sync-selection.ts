import { diffJson, type JsonChange } from '#shared/json-diff.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import { destinationTags, isLive, liveTags, standingTag } from '#shared/sync/standing.ts'
import { chunks } from './chunks.ts'
import type { CatalogDatabase } from './database.ts'
import { storedKind, type DraftRow } from './stored-kinds.ts'
import type { SyncItemRecord } from './sync-records.ts'
import { emptyPreflight, type Preflight } from './sync-runs.ts'
import { baseItemKey } from './sync-outbox.ts'

/** A draft whose payload differs from what was sent to a destination. */
export interface ChangedDraft {
  id: string
  label: string
  changes: JsonChange[]
}

/** How the drafts of a promotion compare with what their source destination received. */
export interface SentComparison {
  /** Drafts changed since they were sent there, with what changed. */
  changed: ChangedDraft[]
  /** Drafts sent there by a version that did not keep what it sent: nothing to compare with. */
  unrecorded: number
}

/**
 * Reads about chosen drafts (a selection, the list's filter, a promotion) at destinations: what
 * a run of exactly those would take, which were sent to one destination and not to another, and
 * how they compare with what was sent.
 */
export class SyncSelectionReader {
  private readonly db: CatalogDatabase

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  /** The pre-flight of a run of exactly `ids` to `destination`, from the drafts themselves (a chunk at a time). */
  async preflightOf(kind: SyncKind, destination: string, ids: readonly string[]): Promise<Preflight> {
    const table = storedKind(kind).table(this.db)
    const summary = emptyPreflight()
    for (const chunk of chunks([...new Set(ids)])) {
      for (const draft of await table.bulkGet(chunk)) {
        if (!draft) continue
        const state = draft.sync[destination]?.state
        if (isLive(draft.sync)) summary.inRun++
        else if (state === 'synced' || state === 'unknown' || state === 'failed' || state === 'rejected')
          summary[state]++
        else if (draft.validity === 'invalid') summary.invalid++
        else summary.ready++
      }
    }
    return summary
  }

  /**
   * Drafts created at `from` and never sent to `to` (nor held by a run): what "send to Production
   * what is synced on Staging" takes. From the `standing` index alone.
   */
  async promotable(kind: SyncKind, from: string, to: string): Promise<string[]> {
    const table = storedKind(kind).table(this.db)
    const [created, there, held] = await Promise.all([
      table.where('standing').equals(standingTag(from, 'synced')).primaryKeys(),
      table.where('standing').anyOf(destinationTags(to)).primaryKeys(),
      // Held by a run elsewhere: the live tags name those few, without reading any draft.
      table.where('standing').anyOf(liveTags()).primaryKeys(),
    ])
    const leftOut = new Set([...there, ...held])
    return created.filter((id) => !leftOut.has(id))
  }

  /** How each of `ids` compares with what was sent to `destination` (its item there keeps the payload). */
  async compareWithSent(
    kind: SyncKind,
    destination: string,
    ids: readonly string[],
  ): Promise<SentComparison> {
    const { definition, table } = storedKind(kind)
    const comparison: SentComparison = { changed: [], unrecorded: 0 }
    for (const chunk of chunks([...ids])) {
      const drafts = (await table(this.db).bulkGet(chunk)).filter(
        (draft): draft is DraftRow => draft?.sync[destination] !== undefined,
      )
      // What stands there: the creation's payload, or the last applied update's.
      const items = await this.db.syncItems.bulkGet(
        drafts.map((draft) => baseItemKey(draft.sync[destination]!)),
      )
      drafts.forEach((draft, i) => {
        const sent = items[i]?.sent
        if (sent === undefined) {
          comparison.unrecorded++
          return
        }
        const changes = diffJson(sent, draft.payload)
        if (changes.length > 0)
          comparison.changed.push({ id: draft.id, label: definition.label(draft.payload, draft.id), changes })
      })
    }
    return comparison
  }

  /**
   * The item whose payload stands at `destination` for a draft: what was sent there (the creation,
   * or the last update applied), and what came of it.
   */
  async itemAt(draft: Pick<DraftRow, 'sync'>, destination: string): Promise<SyncItemRecord | undefined> {
    const standing = draft.sync[destination]
    return standing ? this.db.syncItems.get(baseItemKey(standing)) : undefined
  }
}
