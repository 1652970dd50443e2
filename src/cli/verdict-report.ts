import { counted } from '#shared/counted.ts'
import { placeOf, sayRow, sayRows, thousands, type RowNumbering } from '#shared/sheet/places.ts'
import { HOLD_HEADINGS, type Hold, type HoldReason } from '#shared/sync/send-gates.ts'
import {
  VerdictTally,
  type FileVerdict,
  type RepeatedRows,
  type VerdictOptions,
} from '#shared/sync/file-verdict.ts'
import type { CheckedFile, CheckedItem, InputKind } from './check-input.ts'
import { lineOf } from './sheet-report.ts'
import { WhatDiffers } from './what-differs.ts'

/**
 * The one verdict (src/shared/sync/file-verdict.ts) as `validate`, `convert` and `push --dry-run`
 * say it: "24 SKUs valid; 0 sendable; 24 held back: no barcode (24)", then each reason with its
 * rows, the rows read as the same SKU, the barcodes several SKUs carry and the shop ids several rows
 * carry, each with its rows (the first few, unless --all).
 */

/**
 * Shared barcodes told in which fields their SKUs differ, the first in the file: one SKU of each
 * is kept while the file is read again, and a file of a million rows may share half a million.
 */
const DIFFERENCES_TOLD = 1000

/** Places a line names before "and N more", unless --all. */
export const PLACES_NAMED = 10
/** Groups (of repeated rows, of shared barcodes, …) listed before "and N more", unless --all. */
const GROUPS_LISTED = 20

/**
 * Where things are, as a person finds them: a sheet's data rows said as its lines ("lines 2, 4,
 * 5"), a feed's as its items (places.ts), a JSON list's items ("items 0, 2") counted from 0 as
 * `[N]` is.
 */
export interface Places {
  /** How a sheet's data rows are said; absent for a JSON list of SKUs, whose numbers are its indexes. */
  numbering?: RowNumbering
  /** Name every place, not the first few. */
  all: boolean
}

/** "line 3", "lines 2, 4, 5, … and 14 more"; `total` when more are known than given. */
export function placeList(numbers: readonly number[], places: Places, total = numbers.length): string {
  const shown = places.all ? numbers.length : PLACES_NAMED
  if (places.numbering) return sayRows(numbers, places.numbering, { shown, total })
  const listed = numbers.slice(0, shown)
  const more = total - listed.length
  return `${total === 1 ? 'item' : 'items'} ${listed.join(', ')}${more > 0 ? ` and ${thousands(more)} more` : ''}`
}

/** SKUs held back for one reason, with where they are. */
export interface HoldGroup {
  /** The reason as the counts line says it: "no barcode", "sharing a barcode with another SKU to be sent". */
  label: string
  count: number
  /** Rows of a sheet, or items of a JSON list (from 0), in file order: the first few, unless --all. */
  places: number[]
}

/**
 * Reasons whose words are the same for every SKU they hold ("No barcode", "Category is empty;
 * Sandbox requires it") are grouped by their words; the others (a barcode, the SKUs sharing it)
 * by their heading.
 */
const SAID_AS_IS: ReadonlySet<string> = new Set<HoldReason>(['empty', 'identity', 'required'])

/**
 * Holds grouped by reason, the biggest group first; `holds` come in file order, and each group
 * keeps its first `kept` places (a million rows without a barcode are one count, not a list).
 */
export function holdGroups(
  holds: Iterable<readonly [place: number, hold: Pick<Hold, 'message'> & { reason: string }]>,
  {
    headings = HOLD_HEADINGS,
    kept = PLACES_NAMED,
  }: { headings?: Readonly<Record<string, string>>; kept?: number } = {},
): HoldGroup[] {
  const groups = new Map<string, HoldGroup>()
  for (const [place, hold] of holds) {
    const label = SAID_AS_IS.has(hold.reason)
      ? lowerFirst(hold.message)
      : (headings[hold.reason] ?? hold.reason)
    let group = groups.get(label)
    if (!group) groups.set(label, (group = { label, count: 0, places: [] }))
    group.count++
    if (group.places.length < kept) group.places.push(place)
  }
  return [...groups.values()].sort((a, b) => b.count - a.count)
}

/** "No barcode" → "no barcode"; "GTIN …" stays as it is. */
function lowerFirst(text: string): string {
  return /^\p{Lu}\p{Ll}/u.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text
}

/** "24 SKUs valid; 0 sendable; 24 held back: no barcode (24)". */
export function verdictLine(
  counts: Pick<FileVerdict, 'valid' | 'sendable' | 'heldBack'>,
  groups: readonly HoldGroup[],
  noun = 'SKU',
): string {
  const reasons = groups.map((group) => `${group.label} (${thousands(group.count)})`).join('; ')
  // Each reason counts the SKUs it holds: some held for two, the counts add up to more.
  const several = groups.reduce((sum, group) => sum + group.count, 0) > counts.heldBack
  const held = `${thousands(counts.heldBack)} held back${several ? ', some for more than one reason' : ''}`
  return `${counted(counts.valid, noun)} valid; ${thousands(counts.sendable)} sendable; ${held}${reasons ? `: ${reasons}` : ''}`
}

/** Each reason's places, a line each, indented under the counts line. */
export function holdLines(groups: readonly HoldGroup[], places: Places): string[] {
  return groups.map((group) => `  ${group.label}: ${placeList(group.places, places, group.count)}`)
}

/** At most GROUPS_LISTED of `lines` (every one with --all), then how many more. */
function listed(lines: readonly string[], places: Places): string[] {
  if (places.all || lines.length <= GROUPS_LISTED) return [...lines]
  return [
    ...lines.slice(0, GROUPS_LISTED),
    `  … and ${thousands(lines.length - GROUPS_LISTED)} more (--all lists them)`,
  ]
}

/**
 * Why an item is held back: a gate's reason, or one only a push has (push/push-verdict.ts); with
 * its other reasons when a push judged it (`more`).
 */
export type VerdictHold = Pick<Hold, 'message'> & { reason: string; more?: readonly VerdictHold[] }
/**
 * The verdict with its holds as a push to a journal's destination judged them, when one did, else
 * as the file's gates did; `reasons` gives each reason of a held item.
 */
type Verdict = Omit<FileVerdict, 'holds'> & {
  holds: ReadonlyMap<number, VerdictHold>
  reasons(index: number): readonly VerdictHold[]
}

/** The reasons of a push's holds: the first, then its `more`. */
const reasonsOf =
  (holds: ReadonlyMap<number, VerdictHold>) =>
  (index: number): readonly VerdictHold[] => {
    const hold = holds.get(index)
    return hold ? [hold, ...(hold.more ?? [])] : []
  }

/**
 * The verdict of the SKUs of a file as `validate` and `convert` read it, item by item as it
 * streams (an app creation request has none: the gates are a SKU's). With a destination's journal,
 * what is held back is what a push there would hold back (`judgedByPush`), an app too.
 */
export class VerdictReport {
  private readonly tally: VerdictTally
  private sheet = false
  /** How the sheet's rows are said, known once the file is read (a pair's split): `finish`. */
  private numbering: RowNumbering = 'lines'
  private gated = true
  /** An app creation request's validity: judged only by a push (an app changed since it was created). */
  private appValid = false
  private verdict: Verdict | undefined
  private pushHeld:
    { held: ReadonlyMap<number, VerdictHold>; headings: Readonly<Record<string, string>> } | undefined
  /** In which fields the SKUs on a shared barcode differ, by barcode, once said (`sayWhatDiffers`). */
  private readonly differences = new Map<string, string>()

  constructor(options: VerdictOptions) {
    // A JSON list's items are counted from 1 in the verdict, and said from 0 as [N] is.
    this.tally = new VerdictTally({
      ...options,
      placeOf: (row) => (this.sheet ? sayRow(row, this.numbering) : `item ${row - 1}`),
    })
  }

  add(item: CheckedItem, kind: InputKind): void {
    if (kind === 'app-request') {
      this.gated = false
      this.appValid = item.errors.length === 0
      return
    }
    this.sheet = item.row !== undefined
    this.tally.add({
      payload: item.payload,
      row: item.row ?? item.index + 1,
      valid: item.errors.length === 0,
      ...(item.row !== undefined && item.shopId !== undefined ? { shopId: item.shopId } : {}),
    })
  }

  /**
   * What a push to the journal's destination holds back (push/push-verdict.ts), by index, before
   * `finish`: the items it holds are the verdict's held back, for its reasons, said by `headings`.
   */
  judgedByPush(held: ReadonlyMap<number, VerdictHold>, headings: Readonly<Record<string, string>>): void {
    this.pushHeld = { held, headings }
  }

  /**
   * The verdict once every item is added (`file`, read, says how its rows are said: the first call
   * gives it); undefined for an app creation request no push judged.
   */
  finish(file?: Pick<CheckedFile, 'numbering'>): Verdict | undefined {
    if (this.verdict) return this.verdict
    const held = this.pushHeld?.held
    if (!this.gated) return held && (this.verdict = appVerdict(this.appValid, held))
    if (file?.numbering) this.numbering = file.numbering
    const verdict = this.tally.verdict()
    this.verdict = held
      ? {
          ...verdict,
          holds: held,
          heldBack: held.size,
          sendable: verdict.valid - held.size,
          reasons: reasonsOf(held),
        }
      : { ...verdict, reasons: (index) => verdict.holds.all(index) }
    return this.verdict
  }

  /**
   * Says in which fields the SKUs on each shared barcode differ, as `push` says of each it holds
   * (what-differs.ts). The verdict keeps hashes, not SKUs (a million rows in 60 MB), so the file is
   * read again by `readAgain`, and only the first SKU of each such barcode is kept, of the first
   * DIFFERENCES_TOLD barcodes. After `finish`.
   */
  async sayWhatDiffers(readAgain: (onItem: (item: CheckedItem) => void) => Promise<unknown>): Promise<void> {
    const verdict = this.verdict
    if (!verdict || !this.gated) return
    const barcodeAt = new Map<number, string>()
    for (const group of sharedBarcodes(verdict).slice(0, DIFFERENCES_TOLD))
      for (const row of group.rows) barcodeAt.set(row, group.key)
    if (barcodeAt.size === 0) return
    const differs = new Map<string, WhatDiffers>()
    await readAgain((item) => {
      const barcode = barcodeAt.get(item.row ?? item.index + 1)
      if (barcode === undefined) return
      const seen = differs.get(barcode)
      if (seen) seen.add(item.payload)
      else differs.set(barcode, new WhatDiffers(item.payload))
    })
    for (const [barcode, differ] of differs) {
      const words = differ.words()
      if (words) this.differences.set(barcode, words)
    }
  }

  /** Where things are, as numbers a person reads: rows of a sheet, items of a list from 0. */
  private place(row: number): number {
    return this.sheet ? row : row - 1
  }

  private places(rows: readonly number[]): number[] {
    return rows.map((row) => this.place(row))
  }

  /** The text after the report's summary line: the counts, the reasons and the repeats. */
  text(file: Pick<CheckedFile, 'shopIdColumn' | 'numbering'>, all: boolean): string {
    const verdict = this.finish(file)
    // A file of no SKUs has nothing to judge; its report says it holds none.
    if (!verdict || verdict.total === 0) return ''
    const places: Places = { ...(this.sheet && { numbering: this.numbering }), all }
    const groups = holdGroups(this.holdsByPlace(verdict), {
      kept: all ? Infinity : PLACES_NAMED,
      ...(this.pushHeld && { headings: this.pushHeld.headings }),
    })
    const noun = this.gated ? 'SKU' : 'app'
    if (!this.gated)
      return [
        verdictLine(verdict, groups, noun),
        ...[...verdict.holds.values()].map((hold) => `  ${hold.message}`),
      ]
        .join('\n')
        .concat('\n')
    const lines = [verdictLine(verdict, groups, noun), ...holdLines(groups, places)]
    // The same SKU, not the same row: rows that differ only in columns not read read alike, and
    // saying they repeat each other sent people looking for copies that are not there.
    if (verdict.repeated.length > 0) {
      lines.push(
        this.sheet
          ? `the file's ${counted(verdict.total, 'SKU row')} hold ${counted(verdict.distinct, 'distinct SKU')}; read as the same SKU (in the columns read):`
          : `the list's ${counted(verdict.total, 'SKU')} hold ${counted(verdict.distinct, 'distinct SKU')}; the same SKU more than once:`,
      )
      lines.push(
        ...listed(
          verdict.repeated.map((group) => {
            const [first, ...others] = this.places(group.rows)
            const one = placeList([first!], { ...places, all: true })
            return `  ${placeList(others, places)} as ${one}`
          }),
          places,
        ),
      )
    }
    const shared = sharedBarcodes(verdict)
    if (shared.length > 0) {
      // Only those a push would send hold each other back: one beside an invalid or held SKU goes.
      lines.push(`barcodes on more than one SKU (of those it would send, a push sends none: keep one):`)
      lines.push(
        ...listed(
          this.repeatLines(shared, 'barcode', places).map((line, at) => {
            const differ = this.differences.get(shared[at]!.key)
            return differ ? `${line} (they differ only in ${differ})` : line
          }),
          places,
        ),
      )
    }
    if (verdict.repeatedShopIds.length > 0) {
      const column = file.shopIdColumn === undefined ? '' : ` (${file.shopIdColumn})`
      lines.push(`shop ids${column} on more than one row (one product listed twice? nothing is held for it):`)
      lines.push(...listed(this.repeatLines(verdict.repeatedShopIds, 'shop id', places), places))
    }
    return lines.join('\n') + '\n'
  }

  private repeatLines(groups: readonly RepeatedRows[], what: string, places: Places): string[] {
    return groups.map((group) => `  ${what} ${group.key} is on ${placeList(this.places(group.rows), places)}`)
  }

  /** Each reason of each held item with where it is, in file order. */
  private *holdsByPlace(verdict: Verdict): Generator<readonly [number, VerdictHold]> {
    for (const index of verdict.holds.keys()) {
      const place = this.heldPlace(index)
      for (const hold of verdict.reasons(index)) yield [place, hold]
    }
  }

  private heldPlace(index: number): number {
    return this.gated ? this.place(this.tally.rowOf(index)) : index
  }

  /**
   * The members `--json` adds, in order: counts, then the holds and repeats by row (or index), a
   * spreadsheet's with their lines too (`line`, `lines`; a pair's `file`, `files`) for a person
   * to look them up. `holds` is written as it is iterated (report-writer.ts), one held SKU at a
   * time: a file of a million held rows is never a million objects at once.
   */
  json(file?: Pick<CheckedFile, 'numbering'>): Record<string, unknown> | undefined {
    const verdict = this.finish(file)
    if (!verdict) return undefined
    const at = this.sheet ? 'row' : 'index'
    const list = this.sheet ? 'rows' : 'indexes'
    const numbering = this.sheet ? this.numbering : undefined
    const heldPlace = (index: number) => this.heldPlace(index)
    // One a held SKU: its first reason, and `more` when it has others.
    const holds = (function* () {
      for (const index of verdict.holds.keys()) {
        const place = heldPlace(index)
        const [first, ...more] = verdict.reasons(index)
        yield {
          [at]: place,
          ...(numbering && lineOf(place, numbering)),
          reason: first!.reason,
          message: first!.message,
          ...(more.length > 0 && { more: more.map(({ reason, message }) => ({ reason, message })) }),
        }
      }
    })()
    const rowsOf = (rows: readonly number[]) => ({ [list]: this.places(rows), ...linesOf(rows, numbering) })
    const repeats = (groups: readonly RepeatedRows[], key: string) =>
      groups.map((group) => ({ [key]: group.key, ...rowsOf(group.rows) }))
    return {
      sendable: verdict.sendable,
      heldBack: verdict.heldBack,
      holds,
      distinct: verdict.distinct,
      repeated: verdict.repeated.map((group) => rowsOf(group.rows)),
      sharedBarcodes: repeats(verdict.sharedBarcodes, 'barcode').map((group, at) => {
        const differ = this.differences.get(verdict.sharedBarcodes[at]!.key)
        return differ ? { ...group, differIn: differ } : group
      }),
      repeatedShopIds: repeats(verdict.repeatedShopIds, 'shopId'),
    }
  }
}

/**
 * The barcodes on more than one SKU, but for those whose rows are one SKU repeated: said as the
 * verdict's repeats (a push sends it once), not as SKUs sharing a barcode.
 */
function sharedBarcodes(verdict: Verdict): RepeatedRows[] {
  const sameAs = new Map(verdict.repeated.flatMap((group) => group.rows.map((row) => [row, group.rows[0]])))
  return verdict.sharedBarcodes.filter(
    (group) => !group.rows.every((row) => sameAs.has(row) && sameAs.get(row) === sameAs.get(group.rows[0]!)),
  )
}

/** An app creation request's verdict: the one app, held back as a push judged it. */
function appVerdict(valid: boolean, holds: ReadonlyMap<number, VerdictHold>): Verdict {
  const counted = valid ? 1 : 0
  return {
    total: 1,
    valid: counted,
    sendable: counted - holds.size,
    heldBack: holds.size,
    holds,
    reasons: reasonsOf(holds),
    repeated: [],
    distinct: 1,
    repeatedShopIds: [],
    sharedBarcodes: [],
  }
}

/** Rows' `lines` (and a pair's `files`, one a line) for `--json`; nothing for items. */
export function linesOf(
  rows: readonly number[],
  numbering: RowNumbering | undefined,
): { lines?: number[]; files?: string[] } {
  if (numbering === undefined || numbering === 'items') return {}
  const places = rows.map((row) => placeOf(row, numbering))
  return {
    lines: places.map((place) => place.n),
    ...(typeof numbering === 'object' && { files: places.map((place) => place.file!) }),
  }
}
