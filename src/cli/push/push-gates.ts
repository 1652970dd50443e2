import { isRecord } from '#shared/is-record.ts'
import type { JournalRecord, Journal, PayloadRef } from './journal-outbox.ts'
import { hasUpdate, skuUpdatePlan } from '#shared/sync/sku-update.ts'
import {
  barcodeHolds,
  holdsForGaps,
  REQUIRABLE_FIELDS,
  type CreatedThere,
  type Hold,
  type HoldReason,
  type RequirableField,
  type SendCandidate,
} from '#shared/sync/send-gates.ts'
import { textOf } from '#shared/text-of.ts'
import { CliError } from '../io.ts'
import type { PushInput } from './push-input.ts'
import { WhatDiffers } from '../what-differs.ts'

/**
 * What `push` does with each item of its input, judged before anything leaves, from what the
 * destination's journal (journal-outbox.ts) says of its key (a SKU's barcode):
 *
 * - never created there: created, if it passes the app's gates (src/shared/sync/send-gates.ts);
 * - created there, and its payload is what stands there (same `payloadFingerprint`): unchanged,
 *   nothing sent;
 * - created there and changed since: updated with the fields that changed (`skuUpdatePlan`), if it
 *   passes the same gates and the platform's id of it is known; left as it is with `--no-updates`;
 * - an earlier update's outcome unknown or failed: sent again, whole (a PUT is idempotent);
 * - an earlier creation's outcome unknown or failed: left as it is (it may be there), unless a
 *   platform list (`--platform-has`) settles it: listed, it is marked created; not listed, it is
 *   created again;
 * - refused earlier (or not on the platform any more) and unchanged since: left as it is, and said.
 *
 * What is left as it is keeps its state whatever the gates say now, so a re-run with another
 * `--require` never reopens what was decided. The destination's side is only what this journal
 * (and the list) knows: the service has no read endpoint, so SKUs other journals or the app
 * created there are out of sight.
 */

/**
 * `--require FIELDS`: names from REQUIRABLE_FIELDS (any case), comma-separated, or `none`;
 * `command` is whose usage an error points at (`push`, `validate`, `convert`).
 */
export function parseRequire(value: string, command = 'push'): RequirableField[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const known = `${REQUIRABLE_FIELDS.join(', ')}`
  if (names.length === 1 && names[0]!.toLowerCase() === 'none') return []
  if (names.length === 0) {
    throw new CliError(`--require needs field names (${known}) or "none".`, command)
  }
  const fields: RequirableField[] = []
  for (const name of names) {
    const field = REQUIRABLE_FIELDS.find((known) => known.toLowerCase() === name.toLowerCase())
    if (!field) {
      const why =
        name.toLowerCase() === 'none'
          ? '"none" stands alone (it requires nothing beyond a product name and a barcode)'
          : `"${name}" is not a field ${command} can require`
      throw new CliError(
        `--require: ${why}. The fields are ${known}; or "none". A product name and a barcode are always required.`,
        command,
      )
    }
    fields.push(field)
  }
  return REQUIRABLE_FIELDS.filter((field) => fields.includes(field))
}

/** The barcodes a person says the platform holds (and, from a list with ids, their ids), and the file they came from. */
export interface PlatformList {
  source: string
  barcodes: ReadonlySet<string>
  ids?: ReadonlyMap<string, string>
}

/** Why push holds an item back: the app's gates, and what only updates have. */
export type PushHoldReason = HoldReason | 'no-id' | 'no-update'

export interface PushHold {
  reason: PushHoldReason
  message: string
  /** The SKU's other reasons, after this one (its own fields': a row without a barcode or a category). */
  more?: readonly PushHold[]
}

/**
 * What the push does with an item: `create` or `update` it in this push; leave it `unchanged`
 * (what stands there), `not-updated` (changed, `--no-updates`), `standing` (an earlier outcome,
 * reported as it is), `marked` (an unknown creation the platform's list marks created, unchanged
 * since), or `held` back (`held` says why).
 */
export type ItemPlan = 'create' | 'update' | 'unchanged' | 'not-updated' | 'standing' | 'marked' | 'held'

export interface GateContext {
  input: PushInput
  journal: Pick<Journal, 'record' | 'records' | 'payloadAt'>
  /** The fields required besides the identity fields. */
  required: readonly string[]
  /** Who requires them, as a reason says it: "this push" unless told (validate's profile, "this check"). */
  requiredBy?: string
  /** Whether a barcode whose GTIN check digit is wrong holds its SKU back (a profile's choice). */
  holdBadCheckDigits?: boolean
  /** The service's address, as a reason names it. */
  address: string
  platform?: PlatformList
  /** `--no-updates`: create only. */
  noUpdates: boolean
}

export interface PushJudgement {
  /** Each item's plan, by index; undefined for an invalid one. */
  plans: Array<ItemPlan | undefined>
  /** Items held back from this push, with why. */
  held: Map<number, PushHold>
  /** Updates sent whole: the earlier update's outcome is unknown or failed. */
  resent: Set<number>
  /** Per item updated (or unchanged but for them), fields emptied in the input: an update cannot remove them. */
  kept: Map<number, string[]>
  /** Unknown or failed creations not on the platform's list that the gates keep from going out again. */
  keptBack: Map<number, Hold>
  /** Keys of unknown or failed creations on the platform's list: to be marked created. */
  created: string[]
  /** Keys of unknown or failed creations not on the list, created again in this push. */
  resend: string[]
  /** The platform's ids the list gives for keys created there, to be recorded. */
  ids: Map<string, string>
  /** Barcodes on the list that name no unknown or failed creation. */
  unmatched: string[]
}

const isUnresolvedCreation = (record: JournalRecord | undefined): boolean =>
  record?.stands === undefined &&
  record?.last?.action === 'create' &&
  (record.last.state === 'unknown' || record.last.state === 'failed')

/** What judging builds up: each item's plan, then what each gate holds back, keeps or changes. */
interface Judging {
  context: GateContext
  /** The platform's ids the list gives, by key. */
  listIds: ReadonlyMap<string, string>
  /** Keys of the journal's unknown or failed creations the platform's list names. */
  created: ReadonlySet<string>
  plans: Array<ItemPlan | undefined>
  /** Unknown or failed creations not on the list: created again, unless a gate keeps them back. */
  resendCandidates: Set<number>
  resent: Set<number>
  held: Map<number, PushHold>
  keptBack: Map<number, Hold>
  kept: Map<number, string[]>
}

/**
 * The gates, in the order they are judged, each over the plans the one before left: an app's
 * changes (it has no update), the app's send gates (own fields, then barcodes), then what each
 * update would send. Each may hold an item back or change its plan.
 */
const GATES: ReadonlyArray<(judging: Judging) => void> = [holdUnupdatable, holdAtSendGates, judgeUpdates]

export function judgePush(context: GateContext): PushJudgement {
  const { input, platform } = context
  const created = settledByList(context)
  const judging: Judging = {
    context,
    listIds: platform?.ids ?? new Map<string, string>(),
    created,
    plans: new Array<ItemPlan | undefined>(input.items.total),
    resendCandidates: new Set(),
    resent: new Set(),
    held: new Map(),
    keptBack: new Map(),
    kept: new Map(),
  }
  for (let index = 0; index < input.items.total; index++) {
    if (input.items.at(index) !== undefined) judging.plans[index] = planOf(judging, index)
  }
  for (const gate of GATES) gate(judging)
  const { plans, held, resent, kept, keptBack } = judging
  const resend: string[] = []
  for (const index of judging.resendCandidates) if (plans[index] === 'create') resend.push(input.keyOf(index))
  return {
    plans,
    held,
    resent: new Set([...resent].filter((index) => plans[index] === 'update')),
    kept,
    keptBack,
    created: [...created],
    resend,
    ids: idsToRecord(judging),
    unmatched: platform ? [...platform.barcodes].filter((barcode) => !created.has(barcode)) : [],
  }
}

/** The journal's unknown or failed creations the list names, whatever the input holds: the list says they are there. */
function settledByList({ journal, platform }: GateContext): Set<string> {
  const created = new Set<string>()
  if (platform) {
    for (const [key, record] of journal.records())
      if (isUnresolvedCreation(record) && platform.barcodes.has(key)) created.add(key)
  }
  return created
}

/** An item's plan from what the journal says of its key (see above), before any gate. */
function planOf(judging: Judging, index: number): ItemPlan {
  const { input, journal, platform, noUpdates } = judging.context
  const { created, listIds } = judging
  const key = input.keyOf(index)
  const fingerprint = input.fingerprintOf(index)
  const record = key === '' ? undefined : journal.record(key)
  const last = record?.last
  const stands = created.has(key) ? last!.fingerprint : record?.stands?.fingerprint
  /** A SKU changed since what stands there: updated, unless the kind has no update or the push creates only. */
  const changed = (): ItemPlan =>
    input.kind.operations.update === undefined ? 'held' : noUpdates ? 'not-updated' : 'update'
  if (stands === undefined) {
    if (last === undefined || last.state === 'queued') return 'create'
    if (last.state === 'rejected') return fingerprint === last.fingerprint ? 'standing' : 'create'
    if (platform && last.action === 'create') {
      judging.resendCandidates.add(index)
      return 'create'
    }
    return 'standing'
  }
  if (created.has(key)) return fingerprint === stands ? 'marked' : changed()
  if (last?.action === 'update' && (last.state === 'unknown' || last.state === 'failed')) {
    if (noUpdates) return 'standing'
    judging.resent.add(index)
    return 'update'
  }
  if (last?.gone && !(listIds.has(key) && listIds.get(key) !== record?.id)) return 'standing'
  if (last?.state === 'rejected' && !last.gone && fingerprint === last.fingerprint) return 'standing'
  return fingerprint === stands ? 'unchanged' : changed()
}

const idOf = ({ listIds, context }: Judging, key: string) =>
  listIds.get(key) ?? context.journal.record(key)?.id

/** An app: what was created there cannot be changed through the service. */
function holdUnupdatable(judging: Judging): void {
  const { input, address } = judging.context
  if (input.kind.operations.update !== undefined) return
  judging.plans.forEach((plan, index) => {
    if (plan !== 'held') return
    const id = idOf(judging, input.keyOf(index))
    judging.held.set(index, {
      reason: 'no-update',
      message: `Changed since it was created at ${address}${id === undefined ? '' : ` (id ${id})`}, and the service has no update for ${input.kind.noun}s: the changes are not sent. Make them on the platform, or give it another name to create a new one.`,
    })
  })
}

/**
 * The app's send gates: only what would be sent is judged, as the app does; a SKU held for its
 * own fields takes no part in the barcode checks.
 */
function holdAtSendGates(judging: Judging): void {
  const { input } = judging.context
  if (!input.kind.gated) return
  const { plans, resendCandidates } = judging
  const { own, byBarcode } = ownHolds(judging)
  const { shared, known } = sharedBarcodes(judging, byBarcode)
  const createdThere = createdByOthers(judging)
  // Only a SKU whose barcode another item shares, or the list has, can be held for it: only those
  // are named (which reads their product names from the disk), not every SKU of the input.
  const questionable: SendCandidate<number>[] = []
  plans.forEach((plan, index) => {
    if (plan === undefined || plan === 'held' || own.has(index)) return
    const barcode = input.barcodeOf(index)
    if (shared.has(index) || (plan === 'create' && createdThere.has(barcode)))
      questionable.push({
        key: index,
        barcode,
        label: nameOf(input, index),
        content: input.fingerprintOf(index),
      })
  })
  const barcodes = sayWhatDiffers(input, barcodeHolds(questionable, createdThere))
  for (const [index, hold] of [...own, ...barcodes]) {
    if (known.has(index) && !own.has(index)) continue
    if (resendCandidates.has(index) && (known.has(index) || !shared.has(index))) {
      // The journal's own unknown or failed creation: it stays as it was.
      judging.keptBack.set(index, hold)
      plans[index] = 'standing'
    } else {
      judging.held.set(index, hold)
      plans[index] = 'held'
    }
  }
}

/** Items held for their own fields (those that would be sent), and the others by barcode. */
function ownHolds({ context, plans }: Judging): {
  own: Map<number, Hold & Pick<PushHold, 'more'>>
  byBarcode: Map<string, number[]>
} {
  const { input, required, requiredBy = 'this push', holdBadCheckDigits = false } = context
  const own = new Map<number, Hold & Pick<PushHold, 'more'>>()
  const byBarcode = new Map<string, number[]>()
  plans.forEach((plan, index) => {
    if (plan === undefined || plan === 'held') return
    if (plan === 'create' || plan === 'update') {
      const [hold, ...more] = holdsForGaps(input.gapsOf(index), required, requiredBy, { holdBadCheckDigits })
      if (hold) {
        own.set(index, more.length > 0 ? { ...hold, more } : hold)
        return
      }
    }
    const barcode = input.barcodeOf(index)
    if (barcode === '') return
    const same = byBarcode.get(barcode)
    if (same) same.push(index)
    else byBarcode.set(barcode, [index])
  })
  return { own, byBarcode }
}

/**
 * Items that share a barcode, and of them the one the journal knows: the first whose payload is
 * what the journal knows of it (what stands there, or what was last sent) is that SKU, and keeps
 * its plan; the others are held for sharing it. Where none is, which is right is for a person to
 * say: none goes.
 */
function sharedBarcodes(
  { context }: Judging,
  byBarcode: ReadonlyMap<string, number[]>,
): { shared: Set<number>; known: Set<number> } {
  const { input, journal } = context
  const shared = new Set<number>()
  const known = new Set<number>()
  for (const [barcode, indexes] of byBarcode) {
    if (indexes.length < 2) continue
    for (const index of indexes) shared.add(index)
    const record = journal.record(barcode)
    const fingerprints = [record?.stands?.fingerprint, record?.last?.fingerprint]
    const one = indexes.find((index) => fingerprints.includes(input.fingerprintOf(index)))
    if (one !== undefined) known.add(one)
  }
  return { shared, known }
}

/** The list's barcodes this journal never created there: someone else did. */
function createdByOthers({ context, created }: Judging): Map<string, CreatedThere> {
  const { journal, platform } = context
  const createdThere = new Map<string, CreatedThere>()
  for (const barcode of platform?.barcodes ?? []) {
    if (journal.record(barcode)?.stands === undefined && !created.has(barcode))
      createdThere.set(barcode, { by: `on the platform's list ${platform!.source}` })
  }
  return createdThere
}

/** SKUs held for sharing a barcode, each told in which fields they differ when only a few do (what-differs.ts). */
function sayWhatDiffers(input: PushInput, holds: Map<number, Hold>): Map<number, Hold> {
  const byBarcode = new Map<string, number[]>()
  for (const [index, hold] of holds) {
    if (hold.reason !== 'duplicate') continue
    const barcode = input.barcodeOf(index)
    const same = byBarcode.get(barcode)
    if (same) same.push(index)
    else byBarcode.set(barcode, [index])
  }
  for (const indexes of byBarcode.values()) {
    const [first, ...others] = indexes.map((index) => input.payloadOf(index))
    const differs = new WhatDiffers(first)
    for (const other of others) differs.add(other)
    const fields = differs.words()
    if (fields === undefined) continue
    for (const index of indexes) {
      const hold = holds.get(index)!
      holds.set(index, { ...hold, message: `${hold.message} (they differ only in ${fields})` })
    }
  }
  return holds
}

/** How a gate names an item: where it is, and its product name. */
function nameOf(input: PushInput, index: number): string {
  const payload = input.payloadOf(index)
  const name = isRecord(payload) ? textOf(payload.productName).trim() : ''
  return `${input.placeOf(index)} ${name ? `“${name}”` : '(no product name)'}`
}

/**
 * What an update sends, judged now: one without the platform's id cannot go, one whose only
 * changes are emptied fields has nothing to send (a partial update cannot remove them).
 */
function judgeUpdates(judging: Judging): void {
  const { input, journal, address } = judging.context
  const { plans, created } = judging
  plans.forEach((plan, index) => {
    if (plan !== 'update') return
    const key = input.keyOf(index)
    if (idOf(judging, key) === undefined) {
      plans[index] = 'held'
      judging.held.set(index, {
        reason: 'no-id',
        message: `Changed since it was created at ${address}, but the platform's id of this SKU is unknown, so it cannot be updated: give it with --platform-has LIST, a list with a barcode column and an id column (_id, id or skuId)`,
      })
      return
    }
    const current = input.payloadOf(index)
    if (!isRecord(current) || judging.resent.has(index)) return
    const record = journal.record(key)!
    const ref: PayloadRef | undefined = created.has(key) ? record.last?.ref : record.stands
    const update = skuUpdatePlan(ref ? journal.payloadAt(ref) : undefined, current)
    if (update.kept.length > 0) judging.kept.set(index, update.kept)
    if (!hasUpdate(update)) plans[index] = 'unchanged'
  })
}

/** The list's ids for keys created there (stood there, or marked created now) that the journal does not hold yet. */
function idsToRecord({ context, listIds, created }: Judging): Map<string, string> {
  const ids = new Map<string, string>()
  for (const [key, id] of listIds) {
    const record = context.journal.record(key)
    if ((record?.stands !== undefined || created.has(key)) && record?.id !== id) ids.set(key, id)
  }
  return ids
}
