import type { IndexableType } from 'dexie'
import {
  barcodeHolds,
  barcodeKey,
  EMPTY_GAP,
  heldThere,
  holdForGaps,
  IDENTITY_FIELDS,
  type CreatedThere,
  type Hold,
  type HolderState,
  type HoldReason,
  type SendCandidate,
} from '#shared/sync/send-gates.ts'
import { ITEM_STATES, type ItemState } from '#shared/sync/ports.ts'
import { destinationTags, liveTags, standingTag } from '#shared/sync-state.ts'
import type { CatalogDatabase } from './database.ts'

/** Where SKUs would be sent and what that profile requires of them. */
export interface GateTarget {
  destination: string
  /** The profile's required fields besides the identity fields (`Profile.requiredFields`). */
  required: readonly string[]
  /** How the destination is named in a reason ("created on Production by …"). */
  place: string
}

export interface GateOptions {
  /** Only these drafts would be sent (a selection, a filter, a promotion); every ready one when absent. */
  scope?: ReadonlySet<string>
  /** The drafts whose last sending there failed are sent too (then they are judged as well). */
  includeFailed?: boolean
}

/** The SKUs a run would hold back, each with its reason. */
export interface HeldBack {
  holds: Map<string, Hold>
  /** How many of them failed there before (held back from "send the failed ones too"); the rest were never sent there. */
  failed: number
}

/** Per reason, how many are held back. */
export function countByReason(held: HeldBack): Record<HoldReason, number> {
  const counts = { empty: 0, identity: 0, required: 0, duplicate: 0, created: 0 }
  for (const hold of held.holds.values()) counts[hold.reason]++
  return counts
}

/** States at a destination after which the service has, or may have, the SKU. */
const MAY_HOLD: readonly ItemState[] = ['queued', 'sending', 'synced', 'unknown', 'failed']

/**
 * Which SKU drafts a run to a destination would hold back (src/shared/sync/send-gates.ts), read
 * from the indexes alone: `gaps` for what a draft lacks, `barcode` for the barcodes drafts share,
 * `standing` for what was sent there. Payloads are read only for the few drafts that already
 * carry, there, a barcode another draft would send (to name them).
 */
export class SkuSendGates {
  private readonly db: CatalogDatabase

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  async heldBack(target: GateTarget, { scope, includeFailed = false }: GateOptions = {}): Promise<HeldBack> {
    const table = this.db.skuDrafts
    const { destination, required } = target
    const gapKeys = [EMPTY_GAP, ...IDENTITY_FIELDS, ...required]
    const [standingThere, live, invalid, gapEntries] = await Promise.all([
      keyPairs(table.where('standing').anyOf(destinationTags(destination))),
      table.where('standing').anyOf(liveTags()).primaryKeys(),
      table.where('validity').equals('invalid').primaryKeys(),
      keyPairs(table.where('gaps').anyOf(gapKeys)),
    ])
    /** Each draft's state there, read back from its tag. */
    const stateThere = new Map<string, ItemState>()
    for (const [tag, id] of standingThere) stateThere.set(id, stateOfTag(destination, tag))
    const liveIds = new Set(live)
    const invalidIds = new Set(invalid)
    /** Whether a run would send the draft: in scope, valid, held by no run, not sent there (or failed, when chosen). */
    const sendable = (id: string) => {
      if (scope && !scope.has(id)) return false
      if (invalidIds.has(id) || liveIds.has(id)) return false
      const state = stateThere.get(id)
      return state === undefined || (includeFailed && state === 'failed')
    }

    const held = new Map<string, Hold>()
    const gaps = new Map<string, string[]>()
    for (const [gap, id] of gapEntries) {
      if (!sendable(id)) continue
      const list = gaps.get(id)
      if (list) list.push(gap)
      else gaps.set(id, [gap])
    }
    for (const [id, list] of gaps) {
      const hold = holdForGaps(list, required)
      if (hold) held.set(id, hold)
    }

    // Barcodes more than one draft carries: only there can a send repeat one, or meet one sent.
    const byBarcode = new Map<string, string[]>()
    for (const [value, id] of await keyPairs(table.orderBy('barcode'))) {
      const barcode = barcodeKey(value)
      if (barcode === '') continue
      const ids = byBarcode.get(barcode)
      if (ids) ids.push(id)
      else byBarcode.set(barcode, [id])
    }
    const candidates: SendCandidate<string>[] = []
    const holders = new Map<string, string>()
    for (const [barcode, ids] of byBarcode) {
      if (ids.length < 2) continue
      for (const id of ids) {
        const state = stateThere.get(id)
        if (
          state !== undefined &&
          MAY_HOLD.includes(state) &&
          !(includeFailed && state === 'failed' && sendable(id))
        )
          holders.set(barcode, id)
        else if (sendable(id) && !held.has(id)) candidates.push({ key: id, barcode, label: '' })
      }
    }
    const result = () => ({
      holds: held,
      failed: [...held.keys()].filter((id) => stateThere.get(id) === 'failed').length,
    })
    if (candidates.length === 0) return result()
    const named = await table.bulkGet([...new Set([...candidates.map((c) => c.key), ...holders.values()])])
    const labels = new Map(named.flatMap((draft) => (draft ? [[draft.id, label(draft.productName)]] : [])))
    for (const candidate of candidates) candidate.label = labels.get(candidate.key) ?? 'a deleted draft'
    const createdThere = new Map<string, CreatedThere>()
    const where = { on: `on ${target.place}`, to: target.place }
    for (const [barcode, id] of holders) {
      const state = stateThere.get(id)!
      const holder = state === 'queued' || state === 'sending' ? 'being sent' : (state as HolderState)
      createdThere.set(barcode, heldThere(holder, where, `draft ${labels.get(id) ?? ''}`))
    }
    for (const [id, hold] of barcodeHolds(candidates, createdThere)) held.set(id, hold)
    return result()
  }
}

/** A draft as a reason names it. */
function label(productName: string): string {
  return productName ? `“${productName}”` : '(no product name)'
}

/** The state a `standing` tag of `destination` stands for. */
function stateOfTag(destination: string, tag: string): ItemState {
  return ITEM_STATES.find((state) => standingTag(destination, state) === tag) ?? 'synced'
}

/** Index keys with their drafts' ids, without reading a single draft. */
async function keyPairs(collection: {
  eachKey(callback: (key: IndexableType, cursor: { primaryKey: IndexableType }) => void): Promise<void>
}): Promise<Array<[string, string]>> {
  const pairs: Array<[string, string]> = []
  await collection.eachKey((key, cursor) => pairs.push([String(key), String(cursor.primaryKey)]))
  return pairs
}
