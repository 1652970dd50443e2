import type { IndexableType } from 'dexie'
import {
  barcodeHolds,
  barcodeKey,
  CHECK_DIGIT_GAP,
  EMPTY_GAP,
  heldThere,
  holdForGaps,
  IDENTITY_FIELDS,
  SAMPLE_GAP,
  TRIMMED_CHARACTERS,
  type CreatedThere,
  type Hold,
  type HolderState,
  HOLD_REASONS,
  type HoldReason,
  type HoldRules,
  type SendCandidate,
} from '#shared/sync/send-gates.ts'
import { takesSamples } from '#shared/sync/destination.ts'
import { ITEM_STATES, type ItemState } from '#shared/sync/ports.ts'
import { destinationTags, isLive, liveTags, standingTag, standsAsTag } from '#shared/sync/standing.ts'
import type { CatalogDatabase } from './database.ts'

/** Where SKUs would be sent and what that profile requires of them. */
export interface GateTarget extends HoldRules {
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
  const counts = Object.fromEntries(HOLD_REASONS.map((reason) => [reason, 0])) as Record<HoldReason, number>
  for (const hold of held.holds.values()) counts[hold.reason]++
  return counts
}

/** States at a destination after which the service has, or may have, the SKU. */
const MAY_HOLD: readonly ItemState[] = ['queued', 'sending', 'synced', 'unknown', 'failed']

/** The drafts concerned by another draft's hold, as its editor links to them. */
export interface OtherDraft {
  id: string
  /** As a reason names it: “Aviator”, or (no product name). */
  label: string
}

/** One draft's hold, with the other drafts its reason names (those sharing its barcode, or the one that has it there). */
export interface DraftHold extends Hold {
  others: OtherDraft[]
}

/** Where one draft stands before a run of every ready draft to a destination (its editor's question). */
export interface DraftGate {
  /** Whether such a run would take it at all: valid, held by no run, never sent there (or failed, when chosen). */
  sendable: boolean
  /** Why the gates would hold it back, when they would. */
  hold?: DraftHold
}

/** What the gates read of the drafts concerned: where each stands at the destination, and what it lacks. */
interface GateFacts {
  /** Each draft's state there (absent: never sent there). */
  stateThere: ReadonlyMap<string, ItemState>
  /** Drafts a run (to any destination) holds. */
  live: ReadonlySet<string>
  invalid: ReadonlySet<string>
  /** The gaps a hold looks for, per draft (only drafts with any). */
  gaps: ReadonlyMap<string, readonly string[]>
  /** Per barcode (as `barcodeKey` reads it) the drafts that carry it, where more than one does. */
  shared: ReadonlyMap<string, readonly string[]>
}

/** Who takes part in the barcode checks: per shared barcode, the drafts a run would send, and the one that has it there. */
interface BarcodeParties {
  candidates: SendCandidate<string>[]
  holders: Map<string, string>
}

/**
 * Which SKU drafts a run to a destination would hold back (src/shared/sync/send-gates.ts), read
 * from the indexes alone: `gaps` for what a draft lacks, `barcode` for the barcodes drafts share,
 * `standing` for what was sent there. Payloads are read only for the few drafts that already
 * carry, there, a barcode another draft would send (to name them). `draftGate` answers the same
 * for one draft, from that draft and those sharing its barcode.
 */
export class SkuSendGates {
  private readonly db: CatalogDatabase

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  async heldBack(target: GateTarget, { scope, includeFailed = false }: GateOptions = {}): Promise<HeldBack> {
    const table = this.db.skuDrafts
    const { destination } = target
    const gapKeys = gapKeysOf(target)
    const standsAs = standsAsTag(destination, '')
    const [standingThere, live, invalid, gapEntries, barcodes, formerly] = await Promise.all([
      keyPairs(table.where('standing').anyOf(destinationTags(destination))),
      table.where('standing').anyOf(liveTags()).primaryKeys(),
      table.where('validity').equals('invalid').primaryKeys(),
      keyPairs(table.where('gaps').anyOf(gapKeys)),
      keyPairs(table.orderBy('barcode')),
      keyPairs(table.where('standing').startsWith(standsAs)),
    ])
    const stateThere = new Map<string, ItemState>()
    for (const [tag, id] of standingThere) stateThere.set(id, stateOfTag(destination, tag))
    const gaps = new Map<string, string[]>()
    for (const [gap, id] of gapEntries) {
      const list = gaps.get(id)
      if (list) list.push(gap)
      else gaps.set(id, [gap])
    }
    const facts: GateFacts = {
      stateThere,
      live: new Set(live),
      invalid: new Set(invalid),
      gaps,
      // A created SKU whose draft's barcode was edited carries the one that stands there still.
      shared: sharedBarcodes([
        ...barcodes,
        ...formerly.map(([tag, id]): [string, string] => [tag.slice(standsAs.length), id]),
      ]),
    }
    const sendable = sendableIn(facts, scope, includeFailed)
    const held = ownHolds(facts, sendable, target)
    const parties = barcodeParties(facts, sendable, held, includeFailed)
    const result = () => ({
      holds: held,
      failed: [...held.keys()].filter((id) => stateThere.get(id) === 'failed').length,
    })
    if (parties.candidates.length === 0) return result()
    const named = await table.bulkGet([
      ...new Set([...parties.candidates.map((c) => c.key), ...parties.holders.values()]),
    ])
    const labels = new Map(named.flatMap((draft) => (draft ? [[draft.id, label(draft.productName)]] : [])))
    for (const [id, hold] of barcodeHoldsOf(parties, labels, facts, target)) held.set(id, hold)
    return result()
  }

  /**
   * Whether a run of every ready draft to `target` would send draft `id`, and if not for the
   * gates, why: the same judgement as `heldBack` (its own gaps, then its barcode against the other
   * drafts), read from the draft and the few drafts that share its barcode.
   */
  async draftGate(target: GateTarget, id: string, { includeFailed = false } = {}): Promise<DraftGate> {
    const table = this.db.skuDrafts
    const draft = await table.get(id)
    if (!draft) return { sendable: false }
    const barcode = barcodeKey(draft.barcode)
    const twins = barcode === '' ? [] : await this.carrying(barcode, target.destination)
    const others = await table.bulkGet(twins.filter((twin) => twin !== id))
    // In the barcode index's order, as `heldBack` meets them.
    const drafts = [draft, ...others.filter((other) => other !== undefined)].sort(
      (a, b) => compare(a.barcode, b.barcode) || compare(a.id, b.id),
    )
    const gapKeys = new Set(gapKeysOf(target))
    const stateThere = new Map<string, ItemState>()
    const gaps = new Map<string, string[]>()
    for (const one of drafts) {
      const state = one.sync[target.destination]?.state
      if (state !== undefined) stateThere.set(one.id, state)
      const lacking = one.gaps.filter((gap) => gapKeys.has(gap))
      if (lacking.length) gaps.set(one.id, lacking)
    }
    const facts: GateFacts = {
      stateThere,
      live: new Set(drafts.filter((one) => isLive(one.sync)).map((one) => one.id)),
      invalid: new Set(drafts.filter((one) => one.validity === 'invalid').map((one) => one.id)),
      gaps,
      shared: drafts.length > 1 ? new Map([[barcode, drafts.map((one) => one.id)]]) : new Map(),
    }
    const sendable = sendableIn(facts, undefined, includeFailed)
    if (!sendable(id)) return { sendable: false }
    const held = ownHolds(facts, sendable, target)
    const own = held.get(id)
    if (own) return { sendable: true, hold: { ...own, others: [] } }
    const parties = barcodeParties(facts, sendable, held, includeFailed)
    const labels = new Map(drafts.map((one) => [one.id, label(one.productName)]))
    const hold = barcodeHoldsOf(parties, labels, facts, target).get(id)
    if (!hold) return { sendable: true }
    const concerned =
      hold.reason === 'created'
        ? [parties.holders.get(barcode)!]
        : parties.candidates.filter((candidate) => candidate.key !== id).map((candidate) => candidate.key)
    return {
      sendable: true,
      hold: { ...hold, others: concerned.map((other) => ({ id: other, label: labels.get(other) ?? '' })) },
    }
  }

  /**
   * The drafts whose barcode reads as `barcode` once the spaces around it go, and those created at
   * `destination` with it whose barcode was edited since (it stands there still), from the indexes.
   */
  private async carrying(barcode: string, destination: string): Promise<string[]> {
    const table = this.db.skuDrafts
    const [starting, spaced, standing] = await Promise.all([
      keyPairs(table.where('barcode').startsWith(barcode)),
      keyPairs(table.where('barcode').startsWithAnyOf([...TRIMMED_CHARACTERS])),
      table.where('standing').equals(standsAsTag(destination, barcode)).primaryKeys(),
    ])
    return [
      ...new Set([
        ...[...starting, ...spaced].filter(([value]) => barcodeKey(value) === barcode).map(([, id]) => id),
        ...standing,
      ]),
    ]
  }
}

/** Strings in the order IndexedDB sorts them (by code unit). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The `gaps` entries a profile holds back for: what it requires, a wrong check digit when it says
 * so, and a sample address unless the destination is the Sandbox.
 */
function gapKeysOf(target: GateTarget): string[] {
  return [
    EMPTY_GAP,
    ...IDENTITY_FIELDS,
    ...target.required,
    ...(target.holdBadCheckDigits ? [CHECK_DIGIT_GAP] : []),
    ...(takesSamples(target.destination) ? [] : [SAMPLE_GAP]),
  ]
}

/** Per barcode more than one draft carries, those drafts: only there can a send repeat one, or meet one sent. */
function sharedBarcodes(pairs: ReadonlyArray<[string, string]>): Map<string, string[]> {
  const byBarcode = new Map<string, string[]>()
  for (const [value, id] of pairs) {
    const barcode = barcodeKey(value)
    if (barcode === '') continue
    const ids = byBarcode.get(barcode)
    if (ids) ids.push(id)
    else byBarcode.set(barcode, [id])
  }
  for (const [barcode, ids] of byBarcode) if (ids.length < 2) byBarcode.delete(barcode)
  return byBarcode
}

/** Whether a run would send the draft: in scope, valid, held by no run, not sent there (or failed, when chosen). */
function sendableIn(facts: GateFacts, scope: ReadonlySet<string> | undefined, includeFailed: boolean) {
  return (id: string) => {
    if (scope && !scope.has(id)) return false
    if (facts.invalid.has(id) || facts.live.has(id)) return false
    const state = facts.stateThere.get(id)
    return state === undefined || (includeFailed && state === 'failed')
  }
}

/** The drafts a run would send that their own gaps hold back. */
function ownHolds(
  facts: GateFacts,
  sendable: (id: string) => boolean,
  target: GateTarget,
): Map<string, Hold> {
  const held = new Map<string, Hold>()
  for (const [id, gaps] of facts.gaps) {
    if (!sendable(id)) continue
    const hold = holdForGaps(gaps, target.required, target.place, {
      ...target,
      takesSamples: takesSamples(target.destination),
    })
    if (hold) held.set(id, hold)
  }
  return held
}

/** Per shared barcode, the drafts a run would send (not held for their own fields) and the one that has it there. */
function barcodeParties(
  facts: GateFacts,
  sendable: (id: string) => boolean,
  held: ReadonlyMap<string, Hold>,
  includeFailed: boolean,
): BarcodeParties {
  const candidates: SendCandidate<string>[] = []
  const holders = new Map<string, string>()
  for (const [barcode, ids] of facts.shared) {
    for (const id of ids) {
      const state = facts.stateThere.get(id)
      if (
        state !== undefined &&
        MAY_HOLD.includes(state) &&
        !(includeFailed && state === 'failed' && sendable(id))
      )
        holders.set(barcode, id)
      else if (sendable(id) && !held.has(id)) candidates.push({ key: id, barcode, label: '' })
    }
  }
  return { candidates, holders }
}

/** The barcode holds of the parties, each naming the drafts concerned by `labels`. */
function barcodeHoldsOf(
  parties: BarcodeParties,
  labels: ReadonlyMap<string, string>,
  facts: GateFacts,
  target: GateTarget,
): Map<string, Hold> {
  for (const candidate of parties.candidates) candidate.label = labels.get(candidate.key) ?? 'a deleted draft'
  const createdThere = new Map<string, CreatedThere>()
  const where = { on: `on ${target.place}`, to: target.place }
  for (const [barcode, id] of parties.holders) {
    const state = facts.stateThere.get(id)!
    const holder = state === 'queued' || state === 'sending' ? 'being sent' : (state as HolderState)
    createdThere.set(barcode, heldThere(holder, where, `draft ${labels.get(id) ?? ''}`))
  }
  return barcodeHolds(parties.candidates, createdThere)
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
