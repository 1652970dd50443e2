import { isRecord } from '#shared/is-record.ts'
import type { ItemState } from '#shared/sync/ports.ts'
import {
  barcodeHolds,
  heldThere,
  holdForGaps,
  REQUIRABLE_FIELDS,
  type CreatedThere,
  type Hold,
  type HolderState,
  type RequirableField,
  type SendCandidate,
} from '#shared/sync/send-gates.ts'
import { textOf } from '#shared/text-of.ts'
import { CliError } from '../io.ts'
import type { PushInput } from './push-input.ts'

/**
 * What `push` may send of a SKU input, judged before anything leaves: the app's gates
 * (src/shared/sync/send-gates.ts) over the input's items and what the journal says was sent to the
 * address, and, with `--platform-has`, the decision a list of the platform's barcodes leads to.
 *
 * Only items the journal has never sent (and unknown or failed ones a list sends again) are
 * judged: what the journal sent keeps its state whatever the gates say now, so a re-run with
 * another `--require` never reopens what was decided. The address's side is only what this
 * journal (and the list) knows: the service has no read endpoint, so SKUs other journals, other
 * inputs or the app created there are out of sight.
 */

/** `--require FIELDS`: names from REQUIRABLE_FIELDS (any case), comma-separated, or `none`. */
export function parseRequire(value: string): RequirableField[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const known = `${REQUIRABLE_FIELDS.join(', ')}`
  if (names.length === 1 && names[0]!.toLowerCase() === 'none') return []
  if (names.length === 0) {
    throw new CliError(`--require needs field names (${known}) or "none".`, 'push')
  }
  const fields: RequirableField[] = []
  for (const name of names) {
    const field = REQUIRABLE_FIELDS.find((known) => known.toLowerCase() === name.toLowerCase())
    if (!field) {
      const why =
        name.toLowerCase() === 'none'
          ? '"none" stands alone (it requires nothing beyond a product name and a barcode)'
          : `"${name}" is not a field push can require`
      throw new CliError(
        `--require: ${why}. The fields are ${known}; or "none". A product name and a barcode are always required.`,
        'push',
      )
    }
    fields.push(field)
  }
  return REQUIRABLE_FIELDS.filter((field) => fields.includes(field))
}

/** The barcodes a person says the platform holds, and the file they came from (named in messages). */
export interface PlatformList {
  source: string
  barcodes: ReadonlySet<string>
}

export interface GateContext {
  input: PushInput
  /** The fields required besides the identity fields. */
  required: readonly string[]
  /** The item's state in the journal; undefined for an item that is not sent (invalid). */
  stateOf(index: number): ItemState | undefined
  /** The service's address, as a reason names it. */
  address: string
  platform?: PlatformList
}

export interface GateJudgement {
  /** Queued items held back from this run, with why. */
  held: Map<number, Hold>
  /** Unknown or failed items not on the platform's list that the gates keep from going out again: they stay as they are. */
  keptBack: Map<number, Hold>
  /** Unknown or failed items whose barcode is on the platform's list: to be marked created. */
  created: number[]
  /** Unknown or failed items not on the list, to be sent again in this run. */
  resend: number[]
  /** Barcodes on the list that name no unknown or failed item (already synced, or not of this input). */
  unmatched: string[]
}

/** States after which the address has the item's barcode, or may have it. */
const MAY_HOLD: readonly ItemState[] = ['synced', 'unknown', 'failed', 'sending']

export function judgeSend({ input, required, stateOf, address, platform }: GateContext): GateJudgement {
  const barcodeOf = (index: number) => input.barcodeOf(index)
  const created: number[] = []
  const resendCandidates = new Set<number>()
  const candidates: number[] = []
  /** Per barcode, the item of the journal that (maybe) created it there; a synced one wins. */
  const holders = new Map<string, { index: number; state: ItemState }>()
  const found = new Set<string>()

  for (let index = 0; index < input.items.total; index++) {
    let state = stateOf(index)
    if (state === undefined || state === 'rejected') continue
    const barcode = barcodeOf(index)
    if (platform && (state === 'unknown' || state === 'failed')) {
      if (barcode !== '' && platform.barcodes.has(barcode)) {
        created.push(index)
        found.add(barcode)
        state = 'synced'
      } else {
        resendCandidates.add(index)
        candidates.push(index)
        continue
      }
    }
    if (state === 'queued') {
      candidates.push(index)
      continue
    }
    if (barcode === '' || !MAY_HOLD.includes(state)) continue
    const holder = holders.get(barcode)
    if (!holder || (holder.state !== 'synced' && state === 'synced')) holders.set(barcode, { index, state })
  }

  const nameOf = (index: number) => {
    const payload = input.payloadOf(index)
    const name = isRecord(payload) ? textOf(payload.productName).trim() : ''
    return `${input.placeOf(index)} ${name ? `“${name}”` : '(no product name)'}`
  }
  const createdThere = new Map<string, CreatedThere>()
  const where = { on: `at ${address}`, to: address }
  for (const [barcode, { index, state }] of holders) {
    // A journal's `sending` is a request the command did not see end: its outcome is unknown.
    const holder = state === 'sending' ? 'unknown' : (state as HolderState)
    createdThere.set(barcode, heldThere(holder, where, nameOf(index)))
  }
  if (platform) {
    for (const barcode of platform.barcodes) {
      if (!createdThere.has(barcode))
        createdThere.set(barcode, { by: `on the platform's list ${platform.source}` })
    }
  }

  // As the app does: a SKU held for its own fields takes no part in the barcode checks.
  const holds = new Map<number, Hold>()
  const passing: number[] = []
  const sharing = new Map<string, number>()
  for (const index of candidates) {
    const hold = holdForGaps(input.gapsOf(index), required, 'this push')
    if (hold) holds.set(index, hold)
    else {
      passing.push(index)
      const barcode = barcodeOf(index)
      if (barcode !== '') sharing.set(barcode, (sharing.get(barcode) ?? 0) + 1)
    }
  }
  // Only a SKU whose barcode another shares, or the address has, can be held for it: only those
  // are named (which reads their product names from the disk), not every SKU of the input.
  const questionable: SendCandidate<number>[] = passing
    .filter((index) => (sharing.get(barcodeOf(index)) ?? 0) > 1 || createdThere.has(barcodeOf(index)))
    .map((index) => ({ key: index, barcode: barcodeOf(index), label: nameOf(index) }))
  for (const [index, hold] of barcodeHolds(questionable, createdThere)) holds.set(index, hold)

  const held = new Map<number, Hold>()
  const keptBack = new Map<number, Hold>()
  for (const [index, hold] of holds) (resendCandidates.has(index) ? keptBack : held).set(index, hold)
  return {
    held,
    keptBack,
    created,
    resend: [...resendCandidates].filter((index) => !holds.has(index)),
    unmatched: platform ? [...platform.barcodes].filter((barcode) => !found.has(barcode)) : [],
  }
}
