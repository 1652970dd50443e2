import { textOf } from '#shared/text-of.ts'
import { ConversionTally } from '#shared/sheet/conversion-tally.ts'
import { RareValueTally } from '#shared/rare-values.ts'
import { ProblemGrouper, ROWS_KEPT } from '#shared/sheet/problem-groups.ts'
import { payloadFingerprint, type ContentReading } from '#shared/payload-fingerprint.ts'
import type { RowFingerprint } from '#renderer/db/sku-import-writes.ts'
import type { ProductCounts } from '#shared/sheet/products.ts'
import { sayRow, type RowNumbering } from '#shared/sheet/places.ts'
import type { CellProblem, RowResult } from '#shared/sheet/types.ts'
import { VerdictTally, type FileVerdict } from '#shared/sync/file-verdict.ts'
import { gateFieldTitle, HOLD_REASONS, holdHeading, holdsOf, type Hold } from '#shared/sync/send-gates.ts'
import { gatedFields, gatedMessages, optionalWords } from '#shared/sync/unfilled-fields.ts'
import { missingMessage, missingTitle } from '#shared/validation/validate.ts'
import {
  PREVIEW_ROWS,
  PROBLEMS_KEPT,
  REPEATS_KEPT,
  type BarcodeSummary,
  type DryRunGates,
  type DryRunReport,
  type PreviewRow,
  type ReportedProblem,
} from './import-protocol.ts'

/** The drafts created somewhere, by id and by barcode (`SkuImportWrites.syncedKeys`). */
export interface SyncedKeys {
  ids: ReadonlySet<string>
  barcodes: ReadonlySet<string>
}

/** Barcodes seen, with how often, so repeats are counted once each. */
class BarcodeTally {
  private readonly seen = new Map<string, number>()
  private without = 0

  add(barcode: string) {
    if (barcode) this.seen.set(barcode, (this.seen.get(barcode) ?? 0) + 1)
    else this.without++
  }

  summary(): BarcodeSummary {
    let repeated = 0
    for (const times of this.seen.values()) if (times > 1) repeated++
    return { distinct: [...this.seen.keys()], repeated, without: this.without }
  }
}

const count = (into: Map<string, number>, key: string) => into.set(key, (into.get(key) ?? 0) + 1)

function keep(into: ReportedProblem[], problems: RowResult['errors'], severity: ReportedProblem['severity']) {
  for (const problem of problems) {
    if (into.length >= PROBLEMS_KEPT) return
    into.push({ ...problem, severity })
  }
}

/**
 * Adds up a dry run a stretch of rows at a time. What it keeps is bounded: the counts, the first
 * rows for the preview, the first `PROBLEMS_KEPT` errors, holds and warnings, the barcodes (one
 * string a row) and a few numbers a row for the file's verdict.
 *
 * The rows are judged as the Sync page will judge their drafts: the file's verdict
 * (src/shared/sync/file-verdict.ts, the one `validate` and `push --dry-run` give) by the active
 * profile's gates. A row held back says so, with the gate's reason, in place of the validator's
 * warnings about the fields that gate requires; any other field left empty is "not filled
 * (optional)" (src/shared/sync/unfilled-fields.ts).
 */
export class DryRunTally {
  private rows = 0
  private valid = 0
  private invalid = 0
  private errorCount = 0
  private warningCount = 0
  private readonly preview: PreviewRow[] = []
  // Kept apart so a file full of warnings cannot push its errors out of what is kept.
  private readonly errors: ReportedProblem[] = []
  private readonly warnings: ReportedProblem[] = []
  private readonly validBarcodes = new BarcodeTally()
  /**
   * The names of the rows that would be new drafts, with how many rows each: one named as a draft
   * without a barcode is most likely that product again (a shop's file imported a second time).
   */
  private readonly newNames = { valid: new Map<string, number>(), all: new Map<string, number>() }
  private readonly allBarcodes = new BarcodeTally()
  private readonly conversions = new ConversionTally()
  /** The values of category, brand… with counts: those that look like typos of a common one. */
  private readonly rareValues = new RareValueTally()
  private readonly groups = new ProblemGrouper()
  /** Each row's content by the draft it names or its barcode (the file's last row wins, as "update" does). */
  private readonly fingerprints = new Map<string, RowFingerprint>()
  private readonly reading: ContentReading
  private readonly held: ReadonlySet<string>
  private readonly synced: SyncedKeys
  private readonly gates: DryRunGates
  private readonly verdict: VerdictTally
  /** How the rows are said, known once the file is read (`report`): a hold names other rows by it. */
  private numbering: RowNumbering = 'lines'
  /** The validator's warnings that a hold says instead: the gated fields "missing". */
  private readonly gatedWarnings: ReadonlySet<string>
  /**
   * The columns of a row's gated fields, by their warning ("Barcode is missing"), where the row has
   * one: each hold is said in the column of the field it names.
   */
  private readonly gatedColumns = new Map<number, Map<string, string>>()
  /** Rows with errors that a gate would hold back too, by index: their drafts' editors will say so. */
  private readonly invalidHolds = new Map<number, Hold[]>()
  /** Valid rows that leave fields no gate requires empty ("not filled (optional)"), by index. */
  private readonly warned = new Set<number>()

  /**
   * `reading`: how the file's rows compare with drafts (a sheet's cells, or JSON exactly).
   * `held`: the barcodes drafts hold. Only a row that could update a draft (it names one, or its
   * barcode is held) is fingerprinted for that: a first import of 100,000 rows fingerprints none.
   * `gates`: the active profile's, which the rows are judged by. `synced`: the drafts created
   * somewhere, by id and barcode: a row that may update one is fingerprinted exactly too, to say
   * where it would be changed since sent.
   */
  constructor(
    reading: ContentReading,
    held: ReadonlySet<string>,
    gates: DryRunGates,
    synced: SyncedKeys = { ids: new Set(), barcodes: new Set() },
  ) {
    this.reading = reading
    this.held = held
    this.synced = synced
    this.gates = gates
    const { required, requiredBy, holdBadCheckDigits, takesSamples } = gates
    this.verdict = new VerdictTally({
      required,
      requiredBy,
      holdBadCheckDigits,
      takesSamples,
      placeOf: (row) => sayRow(row, this.numbering),
    })
    this.gatedWarnings = gatedMessages(gatedFields(gates.required))
  }

  add(results: readonly RowResult[]) {
    this.conversions.add(results)
    for (const result of results) {
      const index = this.rows++
      const barcode = textOf(result.sku.barcode)
      const valid = result.errors.length === 0
      if (result.draft || (barcode && this.held.has(barcode))) {
        const fingerprint = payloadFingerprint(result.sku, this.reading)
        const created = result.draft
          ? this.synced.ids.has(result.draft) || this.synced.barcodes.has(barcode)
          : this.synced.barcodes.has(barcode)
        const exact =
          created && this.reading !== 'exact' ? { exact: payloadFingerprint(result.sku) } : undefined
        this.fingerprints.set(
          result.draft ? `draft ${result.draft}` : `barcode ${barcode}`,
          // A row naming its draft is matched by it; its barcode, if any, says it is no row
          // "without a barcode" that the import adds anew.
          result.draft
            ? { draft: result.draft, ...(barcode && { barcode }), fingerprint, ...exact, valid }
            : { barcode, fingerprint, ...exact, valid },
        )
      }
      this.verdict.add({ payload: result.sku, row: result.row, valid })
      this.rareValues.add(result.sku, result.row)
      const warnings = this.ungated(index, result.warnings)
      this.allBarcodes.add(barcode)
      // A row matched to no draft (it names none, no draft holds its barcode) is a new draft.
      const name = textOf(result.sku.productName)
      if (name && !result.draft && !(barcode && this.held.has(barcode))) {
        count(this.newNames.all, name)
        if (valid) count(this.newNames.valid, name)
      }
      if (!valid) {
        this.invalid++
        // The verdict judges valid rows only (only they are ever sent).
        const { required, requiredBy, holdBadCheckDigits, takesSamples } = this.gates
        const holds = holdsOf(result.sku, required, requiredBy, { holdBadCheckDigits, takesSamples })
        if (holds.length) this.invalidHolds.set(index, holds)
      } else {
        this.valid++
        this.validBarcodes.add(barcode)
        // Fields no gate requires left empty, not any warning (a check digit, a status).
        const unfilled = ({ message }: CellProblem) =>
          missingTitle(message) !== undefined && !this.gatedWarnings.has(message)
        if (result.warnings.some(unfilled)) this.warned.add(index)
      }
      this.errorCount += result.errors.length
      this.warningCount += warnings.length
      this.groups.add('error', result.errors)
      this.groups.add('warning', warnings)
      keep(this.errors, result.errors, 'error')
      keep(this.warnings, warnings, 'warning')
      if (this.preview.length < PREVIEW_ROWS) {
        this.preview.push({
          row: result.row,
          productName: textOf(result.sku.productName),
          brand: textOf(result.sku.brand),
          barcode,
          category: textOf(result.sku.category),
          errors: result.errors.length,
          warnings: warnings.length,
        })
      }
    }
  }

  /**
   * A row's warnings but those a hold says instead (a gated field "missing"), the others'
   * "missing" said as "not filled (optional)". Notes the column of each gated one, for its hold.
   */
  private ungated(index: number, warnings: readonly CellProblem[]): CellProblem[] {
    const kept: CellProblem[] = []
    for (const warning of warnings) {
      if (this.gatedWarnings.has(warning.message)) {
        // A file without the column (most often) keeps nothing: no column is the default.
        if (warning.column) {
          const columns = this.gatedColumns.get(index) ?? new Map<string, string>()
          this.gatedColumns.set(index, columns.set(warning.message, warning.column))
        }
      } else kept.push({ ...warning, message: optionalWords(warning.message) })
    }
    return kept
  }

  /**
   * The holds as problems, in the file's order: each reason of each row the verdict holds back,
   * and of each row with errors a gate would hold back too. A barcode shared is said in the barcode's column, its rows grouped by the
   * reason (each message names the other rows); a field left empty in its column where the file
   * has one.
   */
  private holdProblems(verdict: FileVerdict): ReportedProblem[] {
    const all = [
      ...[...this.invalidHolds].flatMap(([index, holds]) => holds.map((hold) => [index, hold] as const)),
      ...[...verdict.holds.keys()].flatMap((index) =>
        verdict.holds.all(index).map((hold) => [index, hold] as const),
      ),
    ].sort(([a], [b]) => a - b)
    const barcodeOf = new Map(
      verdict.sharedBarcodes.flatMap(({ key, rows }) => rows.map((row) => [row, key])),
    )
    return all.map(([index, hold]): ReportedProblem => {
      const shared = hold.reason === 'duplicate' || hold.reason === 'repeat' || hold.reason === 'created'
      const heading = holdHeading(hold.reason, this.gates.requiredBy)
      const row = this.verdict.rowOf(index)
      return {
        row,
        column: shared ? this.gates.barcodeColumn : this.columnOf(index, hold),
        value: (shared && barcodeOf.get(row)) || '',
        message: hold.message,
        ...(shared && { kind: `${heading.charAt(0).toUpperCase()}${heading.slice(1)}` }),
        severity: 'held',
      }
    })
  }

  /**
   * The product names of the rows the import would add as new drafts (matched to none by the draft
   * they name or their barcode), with how many rows each: of the valid rows, or of all.
   */
  namesOfNewRows(rows: 'valid' | 'all'): ReadonlyMap<string, number> {
    return this.newNames[rows]
  }

  /** The column of the first field a hold names that the row has a column for; '' for none. */
  private columnOf(index: number, hold: Hold): string {
    const columns = this.gatedColumns.get(index)
    for (const field of hold.fields ?? []) {
      const column = columns?.get(missingMessage(gateFieldTitle(field)))
      if (column) return column
    }
    return ''
  }

  /**
   * The report, but for what the drafts say of it (`taken`, read by the worker); `numbering`: how
   * the file's rows are said (places.ts), known once it is read.
   */
  report(
    documentErrors: string[],
    numbering: RowNumbering = 'lines',
    products?: ProductCounts,
    fileNotes: string[] = [],
  ): Omit<DryRunReport, 'taken'> {
    this.numbering = numbering
    const verdict = this.verdict.verdict()
    const holds = this.holdProblems(verdict)
    this.groups.add('held', holds)
    const counts = new Map(HOLD_REASONS.map((reason) => [reason, 0]))
    for (const hold of verdict.holds.values()) counts.set(hold.reason, counts.get(hold.reason)! + 1)
    this.preview.forEach((row, index) => {
      const hold = verdict.holds.get(index)
      if (hold) row.held = hold.message
    })
    let heldWarned = 0
    for (const index of verdict.holds.keys()) if (this.warned.has(index)) heldWarned++
    return {
      ...(products && { products }),
      numbering,
      conversions: this.conversions.counts,
      groups: this.groups.list,
      fingerprints: [...this.fingerprints.values()],
      filled: this.conversions.filled,
      rareValues: this.rareValues.rareValues(),
      rows: this.rows,
      valid: this.valid,
      invalid: this.invalid,
      sendable: verdict.sendable,
      heldBack: verdict.heldBack,
      heldReasons: HOLD_REASONS.flatMap((reason) => {
        const n = counts.get(reason)!
        return n ? [{ reason, n }] : []
      }),
      judgedBy: this.gates.requiredBy,
      sendableUnfilled: this.warned.size - heldWarned,
      repeated: verdict.repeated
        .slice(0, REPEATS_KEPT)
        .map((group) => ({ ...group, rows: group.rows.slice(0, ROWS_KEPT) })),
      repeatedGroups: verdict.repeated.length,
      distinct: verdict.distinct,
      preview: this.preview,
      problems: [...this.errors, ...holds.slice(0, PROBLEMS_KEPT), ...this.warnings],
      errorCount: this.errorCount,
      // Rows, not reasons: a row held back for two is one row held back.
      heldCount: new Set(holds.map((hold) => hold.row)).size,
      heldProblems: holds.length,
      warningCount: this.warningCount,
      documentErrors,
      fileNotes,
      barcodes: { valid: this.validBarcodes.summary(), all: this.allBarcodes.summary() },
    }
  }
}
