import { createHash, type Hash } from 'node:crypto'
import { isRecord } from '#shared/is-record.ts'
import { payloadFingerprint } from '#shared/payload-fingerprint.ts'
import { sayRow, thousands } from '#shared/sheet/places.ts'
import { barcodeKey, skuGaps } from '#shared/sync/send-gates.ts'
import { missingTitle } from '#shared/validation/validate.ts'
import { APP_KIND, SKU_KIND, type DraftKind } from '#shared/sync/kinds.ts'
import { checkInput, firstError, type CheckedFile, type CheckedItem } from '../check-input.ts'
import { CliError } from '../io.ts'
import { reportWriter } from '../report-writer.ts'
import type { SheetOptions } from '../sheet-options.ts'
import { PayloadStore } from './payload-store.ts'

/**
 * What `push` sends, read by the same pipeline as `validate`, in one pass as the file streams:
 * every item keeps its index in the file, invalid ones are not sent (they are reported with their
 * first error). What becomes of the valid ones (created, updated, unchanged, held back by the
 * gates) depends on the options and the destination's journal, so it is judged once the journal
 * is open (push-gates.ts), never here.
 *
 * Kept in memory for each item is only what the gates, the journal and the reports ask of every
 * item: its label, its key in the journal (a SKU's barcode, an app's name), the fingerprint of its
 * payload (`payloadFingerprint`: what says "unchanged since sent there"), its row, the gate fields
 * it leaves empty (when any) and, for an invalid one, its first error. The items themselves wait
 * on disk (payload-store.ts) until they are sent. The input's own fingerprint is how a journal of
 * the earlier format (bound to one file's content) is recognised (journal-legacy.ts).
 */
export interface PushInput {
  kind: DraftKind
  /** What `validate` would say of the file as a whole (its mapping, its columns that look like typos). */
  file: CheckedFile
  items: InputItems
  /** The items not sent because they do not meet the contract. */
  invalid: { index: number; label: string; message: string }[]
  /**
   * The valid items' warnings by field, in the order first met: how many items have one there. They
   * are sent as they are, so push says them: the fields left empty that the contract lists
   * (`missing`, by title), and the values worth a look (`values`, by a sheet's column or a JSON
   * item's path: an unknown status, a check digit).
   */
  warned: { missing: Map<string, number>; values: Map<string, number> }
  /** Of the whole input, as earlier versions bound a journal to it. */
  fingerprint: string
  labelOf(index: number): string
  /** The SKU's barcode as the gates compare it ('' for none, and for an app). */
  barcodeOf(index: number): string
  /**
   * What the journal knows the item by at the destination ('' for none): a SKU's barcode, an app's
   * name (its label: an app has no other key a person would recognise).
   */
  keyOf(index: number): string
  /** `payloadFingerprint` of the item's payload. */
  fingerprintOf(index: number): string
  /** The gate fields the SKU leaves empty (`skuGaps`), read once. */
  gapsOf(index: number): readonly string[]
  /** The item as read, valid or not (undefined past the end), from the disk. */
  payloadOf(index: number): unknown
  /** For a sheet: the data row the item came from, as validate counts them (from 1). */
  rowOf(index: number): number | undefined
  /**
   * Where a person finds the item in FILE, as validate says it: "line N" of a spreadsheet (its
   * row's line; "item N" of a feed), "item N" of a JSON list (its position from 0, the [N] of
   * validate and of push's lists).
   */
  placeOf(index: number): string
  /** Removes the items kept on disk. */
  close(): void
}

/** The items of an input by index: an invalid one is undefined (it is not sent). */
export interface InputItems {
  total: number
  at(index: number): { payload: unknown; label: string } | undefined
}

/**
 * A copy of a string that holds nothing else: a cell of a sheet can be a slice of the megabyte of
 * text it was read from, and keeping the slice would keep the whole stretch alive.
 */
const ownCopy = (text: string) => Buffer.from(text, 'utf8').toString('utf8')

const NO_GAPS: readonly string[] = []

export async function readPushInput(
  file: string,
  cwd: string,
  options: SheetOptions = {},
): Promise<PushInput> {
  const store = new PayloadStore()
  try {
    return await readInto(store, file, cwd, options)
  } catch (error) {
    store.close()
    throw error
  }
}

async function readInto(
  store: PayloadStore,
  file: string,
  cwd: string,
  options: SheetOptions,
): Promise<PushInput> {
  let kind = SKU_KIND
  let hash: Hash | undefined
  const labels: string[] = []
  const barcodes: string[] = []
  const rows: number[] = []
  const fingerprints: string[] = []
  const gaps = new Map<number, readonly string[]>()
  const invalid: PushInput['invalid'] = []
  const warned: PushInput['warned'] = { missing: new Map(), values: new Map() }
  const errors = new Set<number>()
  const checked = await checkInput(file, cwd, options, (item, inputKind) => {
    // The kind is known by the first item: an app request is one document, read whole.
    if (!hash) {
      kind = inputKind === 'app-request' ? APP_KIND : SKU_KIND
      hash = createHash('sha256').update(kind.kind)
    }
    const { index, payload } = item
    const json = JSON.stringify(payload) ?? 'null'
    hash.update('\n').update(json)
    store.add(json)
    fingerprints.push(payloadFingerprint(payload))
    const label = ownCopy(kind.label(payload, `#${index}`))
    labels.push(label)
    // The gates go by barcodes (a gated kind's items have one); the others' are never read.
    const barcode = kind.gated ? barcodeKey(isRecord(payload) ? payload.barcode : undefined) : ''
    barcodes.push(barcode === label ? label : ownCopy(barcode))
    if (item.row !== undefined) rows.push(item.row)
    const error = firstError(item)
    if (error !== undefined) {
      invalid.push({ index, label, message: error })
      errors.add(index)
    } else {
      countWarnings(warned, item)
      if (kind.gated) {
        const empty = skuGaps(payload)
        if (empty.length > 0) gaps.set(index, empty)
      }
    }
  })
  if (checked.fileErrors.length > 0) throw fileErrors(file, checked)
  if (labels.length === 0) throw new CliError(`${file} holds nothing to send.`)
  const total = labels.length
  return {
    kind,
    file: checked,
    items: {
      total,
      at(index) {
        if (!(index >= 0 && index < total) || errors.has(index)) return undefined
        // The payload is read from the disk only when asked for: the journal asks every item
        // whether it is sent when it opens, and only those it sends for their payload.
        return {
          label: labels[index]!,
          get payload() {
            return store.at(index)
          },
        }
      },
    },
    invalid,
    warned,
    fingerprint: hash!.digest('hex'),
    labelOf: (index) => labels[index] ?? `#${index}`,
    barcodeOf: (index) => barcodes[index] ?? '',
    keyOf: (index) => (kind.gated ? (barcodes[index] ?? '') : (labels[index] ?? '')),
    fingerprintOf: (index) => fingerprints[index] ?? '',
    gapsOf: (index) => gaps.get(index) ?? NO_GAPS,
    payloadOf: (index) => store.at(index),
    rowOf: (index) => rows[index],
    placeOf(index) {
      const row = rows[index]
      return row === undefined ? `item ${thousands(index)}` : sayRow(row, checked.numbering ?? 'lines')
    },
    close: () => store.close(),
  }
}

/** Only a document read whole has problems of its own, and then it has no items to report. */
function fileErrors(file: string, checked: CheckedFile): CliError {
  let text = ''
  reportWriter(false).write({ write: (part: string) => (text += part) }, checked)
  return new CliError(`${file} is not something push can send:\n${text.trimEnd()}`)
}

/** Counts an item once under each field it has a warning on: a missing field, or a value. */
function countWarnings(warned: PushInput['warned'], item: CheckedItem): void {
  const missing = new Set<string>()
  const values = new Set<string>()
  for (const warning of item.warnings) {
    const title = missingTitle(warning.message)
    if (title !== undefined) missing.add(title)
    else values.add(('column' in warning ? warning.column : warning.path) || 'the item')
  }
  for (const field of missing) warned.missing.set(field, (warned.missing.get(field) ?? 0) + 1)
  for (const field of values) warned.values.set(field, (warned.values.get(field) ?? 0) + 1)
}
