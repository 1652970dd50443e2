import { isRecord } from '../is-record.ts'
import { hash53 } from '../payload-fingerprint.ts'
import {
  barcodeHolds,
  barcodeKey,
  holdsOf,
  type CreatedThere,
  type Hold,
  type SendCandidate,
} from './send-gates.ts'
import { sayRow } from '../sheet/places.ts'

/**
 * One verdict for the SKUs of a file (a sheet's rows, a JSON list), the same in `validate`,
 * `convert`, `push --dry-run` and the import's dry run, and the same gates as the app's pre-flight
 * (send-gates.ts): each SKU is valid or not (the contract), and sendable or held back, with its
 * reasons (identity fields, the required fields, a barcode another SKU of the file carries, or one
 * the destination already has when its records are known): every reason its own fields give, so
 * a row without a barcode and a category is said to lack both before either is filled in. Repeated rows and repeated shop ids
 * are found too, each named with its rows.
 */

/** One SKU of the file as the verdict reads it. */
export interface VerdictItem {
  payload: unknown
  /** How a person finds it: the sheet's row number, or the SKU's place in a JSON list (from 1). */
  row: number
  /** Whether the contract's validation found no error in it. */
  valid: boolean
  /** The shop's own id of the row's product (Shopify's Variant ID, WooCommerce's ID, …), when the file has one. */
  shopId?: string
}

export interface VerdictOptions {
  /** The fields required besides the identity fields (a profile's, `--require`, the default). */
  required: readonly string[]
  /** Who requires them, as a reason says it: a profile's name, "this push", "this file". */
  requiredBy: string
  /** Whether a barcode whose GTIN check digit is wrong holds its SKU back (a profile's choice). */
  holdBadCheckDigits?: boolean
  /** Whether the destination takes SKUs naming sample addresses (the built-in Sandbox only). */
  takesSamples?: boolean
  /** Barcodes the destination has (or may have) from other SKUs, when its records are known. */
  createdThere?: ReadonlyMap<string, CreatedThere>
  /**
   * How a reason names an item by its row ("item 3" of a JSON list); by default a sheet's line,
   * "line N + 1" (sheet/places.ts).
   */
  placeOf?: (row: number) => string
}

/** Rows that are the same SKU, or that carry the same shop id. */
export interface RepeatedRows {
  /** The shared barcode or shop id; empty for rows read as the same SKU without a barcode. */
  key: string
  rows: number[]
}

export interface FileVerdict {
  total: number
  valid: number
  /** Valid, and held back by no gate: what a push would send. */
  sendable: number
  /** Valid but held back (an invalid SKU is counted as invalid, never here). */
  heldBack: number
  /** Why each held-back SKU is held, by its index in the items: its first reason, and `all` of them. */
  holds: HeldBack
  /** Rows whose SKUs are identical, each group with its rows; `distinct` counts the SKUs once each. */
  repeated: RepeatedRows[]
  distinct: number
  /** Shop ids carried by more than one row. */
  repeatedShopIds: RepeatedRows[]
  /**
   * Barcodes more than one SKU of the file carries, each with its rows, whether or not another
   * reason holds them back (only SKUs sendable by their own fields hold each other back: these
   * rows would be held for the barcode once the rest is fixed).
   */
  sharedBarcodes: RepeatedRows[]
}

export function fileVerdict(items: readonly VerdictItem[], options: VerdictOptions): FileVerdict {
  const tally = new VerdictTally(options)
  for (const item of items) tally.add(item)
  return tally.verdict()
}

/**
 * `fileVerdict` an item at a time, for a file read as it streams (the CLI's `validate` and
 * `convert`, which read files larger than their memory). What it keeps of an item is a few
 * numbers in typed arrays, outside the JavaScript heap: its row, its hold (as the number of one of
 * the few distinct reasons), and the 53-bit hashes of its content, barcode and shop id in
 * {@link FirstSeen} tables; the text of a barcode or shop id only once a second item carries it.
 * About 60 bytes an item: a million rows, 60 MB.
 */
export class VerdictTally {
  private readonly options: VerdictOptions
  /** Each item's row, by its index. */
  private readonly rows = new GrowingInts()
  /** Each item's holds by its own fields: 0 none, -1 invalid, k the (k-1)th of `reasons`. */
  private readonly codes = new GrowingInts()
  /** The few distinct lists of reasons the items have, each once. */
  private readonly reasons: Hold[][] = []
  private readonly reasonCodes = new Map<string, number>()
  private readonly content = new FirstSeen()
  private readonly barcodes = new FirstSeen()
  private readonly shopIds = new FirstSeen()
  /** Items that repeat an earlier one, by the first item's index; with the shared text. */
  private readonly repeats = {
    content: new Map<number, { key: string; indexes: number[] }>(),
    barcode: new Map<number, { key: string; indexes: number[] }>(),
    shopId: new Map<number, { key: string; indexes: number[] }>(),
  }
  /** Items to be sent whose barcode the destination has: held for it. */
  private readonly createdThere: SendCandidate<number>[] = []
  private valid = 0
  /** Items with neither a barcode nor a name: each a SKU of its own, alike or not. */
  private unnamed = 0

  constructor(options: VerdictOptions) {
    this.options = options
  }

  add(item: VerdictItem): void {
    const index = this.rows.length
    this.rows.push(item.row)
    const barcode = barcodeKey((item.payload as { barcode?: unknown } | undefined)?.barcode)
    // A row that holds no field (a stock sheet's, say) is no SKU: it repeats none.
    if (isRecord(item.payload) && Object.keys(item.payload).length > 0) {
      // Nor is one read with neither a barcode nor a name the same SKU as another: a sheet whose
      // name columns were not read ("title_uk") had three jewels "read as the same SKU", alike
      // only in the defaults and the columns read.
      if (barcode !== '' || hasName(item.payload))
        this.note('content', this.content, hashOf(JSON.stringify(item.payload)), index, barcode)
      else this.unnamed++
      if (barcode !== '') this.note('barcode', this.barcodes, hashOf(barcode), index, barcode)
      const shopId = item.shopId?.trim()
      if (shopId) this.note('shopId', this.shopIds, hashOf(shopId), index, shopId)
    }
    // Only valid SKUs are ever sent, so only they hold each other back by a shared barcode.
    if (!item.valid) {
      this.codes.push(-1)
      return
    }
    this.valid++
    const options = this.options
    const holds = holdsOf(item.payload, options.required, options.requiredBy, {
      holdBadCheckDigits: options.holdBadCheckDigits ?? false,
      takesSamples: options.takesSamples ?? false,
    })
    this.codes.push(holds.length ? this.reasonCode(holds) : 0)
    if (!holds.length && barcode !== '' && options.createdThere?.has(barcode))
      this.createdThere.push({ key: index, barcode: ownCopy(barcode), label: this.placeOf(index) })
  }

  /** The row of the item added `index`-th (from 0): a hold is by index. */
  rowOf(index: number): number {
    return this.rows.at(index)
  }

  verdict(): FileVerdict {
    const { rows, codes, reasons } = this
    // Of the items sharing a barcode, those no other reason holds back hold each other back.
    const candidates: SendCandidate<number>[] = [...this.createdThere]
    // Rows read as the same SKU are one: each named by the first of them.
    const sameAs = new Map<number, number>()
    for (const [first, group] of this.repeats.content)
      for (const index of group.indexes) sameAs.set(index, first)
    for (const group of this.repeats.barcode.values()) {
      for (const index of group.indexes) {
        if (codes.at(index) === 0 && !this.options.createdThere?.has(group.key))
          candidates.push({
            key: index,
            barcode: group.key,
            label: this.placeOf(index),
            content: String(sameAs.get(index) ?? index),
          })
      }
    }
    const byBarcode = barcodeHolds(candidates, this.options.createdThere ?? new Map<string, CreatedThere>())
    let own = 0
    for (let index = 0; index < codes.length; index++) if (codes.at(index) > 0) own++
    const heldBack = own + byBarcode.size
    const rowsOf = (group: { key: string; indexes: number[] }): RepeatedRows => ({
      key: group.key,
      rows: group.indexes.map((index) => rows.at(index)),
    })
    return {
      total: rows.length,
      valid: this.valid,
      sendable: this.valid - heldBack,
      heldBack,
      holds: new HeldItems(codes, reasons, byBarcode, heldBack),
      repeated: [...this.repeats.content.values()].map(rowsOf),
      distinct: this.content.size + this.unnamed,
      repeatedShopIds: [...this.repeats.shopId.values()].map(rowsOf),
      sharedBarcodes: [...this.repeats.barcode.values()].map(rowsOf),
    }
  }

  private placeOf(index: number): string {
    const row = this.rows.at(index)
    return this.options.placeOf?.(row) ?? sayRow(row, 'lines')
  }

  private reasonCode(holds: Hold[]): number {
    const key = holds.map((hold) => hold.message).join('\n')
    let code = this.reasonCodes.get(key)
    if (code === undefined) {
      this.reasons.push(holds)
      code = this.reasons.length
      this.reasonCodes.set(key, code)
    }
    return code
  }

  /** Records the item under `hash`; the second item with it starts a group of repeats, with `key`'s text. */
  private note(
    kind: keyof VerdictTally['repeats'],
    table: FirstSeen,
    hash: number,
    index: number,
    key: string,
  ): void {
    const first = table.firstOr(hash, index)
    if (first < 0) return
    const groups = this.repeats[kind]
    const group = groups.get(first)
    if (group) group.indexes.push(index)
    else groups.set(first, { key: ownCopy(key), indexes: [first, index] })
  }
}

/**
 * A text's 53-bit hash (payload-fingerprint.ts's cyrb53), as a number: two different texts share
 * one about once in 10^15 pairs. A row's content is hashed as its JSON as read, not as the
 * key-sorted text of `payloadFingerprint`, which costs four times as much (16 µs a SKU against 4,
 * most of what validate pays for a row): a sheet's rows are built in one key order, so the same
 * cells give the same text; two items of a JSON list written in different key orders are not
 * called repeats, but their barcode still holds them back.
 */
function hashOf(text: string): number {
  return parseInt(hash53(text), 36)
}

/**
 * 53-bit hashes with the first item that had each: an open-addressing table in typed arrays (20
 * bytes a slot, half of them free), outside the JavaScript heap, where a Map of strings took ten
 * times that in it.
 */
class FirstSeen {
  private keys = new Float64Array(1024).fill(-1)
  private firsts = new Int32Array(1024)
  size = 0

  /** The first item with `hash`; -1 when there was none, `index` now being it. */
  firstOr(hash: number, index: number): number {
    if ((this.size + 1) * 2 > this.keys.length) this.grow()
    const mask = this.keys.length - 1
    // The hash's low 32 bits are as well mixed as the rest: cyrb53's h1.
    for (let slot = (hash | 0) & mask; ; slot = (slot + 1) & mask) {
      const found = this.keys[slot]!
      if (found === hash) return this.firsts[slot]!
      if (found === -1) {
        this.keys[slot] = hash
        this.firsts[slot] = index
        this.size++
        return -1
      }
    }
  }

  private grow(): void {
    const { keys, firsts } = this
    this.keys = new Float64Array(keys.length * 2).fill(-1)
    this.firsts = new Int32Array(keys.length * 2)
    const mask = this.keys.length - 1
    keys.forEach((hash, at) => {
      if (hash === -1) return
      let slot = (hash | 0) & mask
      while (this.keys[slot] !== -1) slot = (slot + 1) & mask
      this.keys[slot] = hash
      this.firsts[slot] = firsts[at]!
    })
  }
}

/** Whole numbers one after another in a typed array that grows as they come. */
class GrowingInts {
  private values = new Int32Array(1024)
  length = 0

  push(value: number): void {
    if (this.length === this.values.length) {
      const larger = new Int32Array(this.values.length * 2)
      larger.set(this.values)
      this.values = larger
    }
    this.values[this.length++] = value
  }

  at(index: number): number {
    return this.values[index]!
  }
}

/** The held-back items by index, each with its first reason; `all` gives every one. */
export interface HeldBack extends ReadonlyMap<number, Hold> {
  /** Every reason the item at `index` is held back for, the first first; none when it is not. */
  all(index: number): readonly Hold[]
}

/**
 * The held-back items by index, read from the tally's codes (a million rows without a barcode
 * are a million numbers, not a million map entries) and the few held for their barcode.
 */
class HeldItems implements HeldBack {
  readonly size: number
  private readonly codes: GrowingInts
  private readonly reasons: readonly (readonly Hold[])[]
  private readonly byBarcode: ReadonlyMap<number, Hold>

  constructor(
    codes: GrowingInts,
    reasons: readonly (readonly Hold[])[],
    byBarcode: ReadonlyMap<number, Hold>,
    size: number,
  ) {
    this.codes = codes
    this.reasons = reasons
    this.byBarcode = byBarcode
    this.size = size
  }

  get(index: number): Hold | undefined {
    return this.all(index)[0]
  }

  all(index: number): readonly Hold[] {
    if (!(index >= 0 && index < this.codes.length)) return []
    const code = this.codes.at(index)
    if (code > 0) return this.reasons[code - 1]!
    const hold = this.byBarcode.get(index)
    return hold ? [hold] : []
  }

  has(index: number): boolean {
    return this.get(index) !== undefined
  }

  *entries(): MapIterator<[number, Hold]> {
    for (let index = 0; index < this.codes.length; index++) {
      const hold = this.get(index)
      if (hold) yield [index, hold]
    }
  }

  *keys(): MapIterator<number> {
    for (const [index] of this.entries()) yield index
  }

  *values(): MapIterator<Hold> {
    for (const [, hold] of this.entries()) yield hold
  }

  [Symbol.iterator](): MapIterator<[number, Hold]> {
    return this.entries()
  }

  forEach(callback: (hold: Hold, index: number, map: ReadonlyMap<number, Hold>) => void): void {
    for (const [index, hold] of this.entries()) callback(hold, index, this)
  }
}

/**
 * A string that holds nothing else: a sheet's cell can be a slice of the megabyte of text it was
 * read from, and keeping the slice (a barcode, kept for every row) would keep the whole stretch.
 * V8 makes a slice only of 13 characters or more; a shorter string is a copy already.
 */
const ownCopy = (text: string): string =>
  text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string)

/** Whether a SKU read has a product name, the other of what tells a SKU from another. */
function hasName(payload: Record<string, unknown>): boolean {
  return typeof payload.productName === 'string' && payload.productName.trim() !== ''
}
