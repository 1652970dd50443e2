import { textOf } from '#shared/text-of.ts'
import { ConversionTally } from '#shared/sheet/conversion-tally.ts'
import { ProblemGrouper } from '#shared/sheet/problem-groups.ts'
import { payloadFingerprint, type ContentReading } from '#shared/payload-fingerprint.ts'
import type { RowFingerprint } from '#renderer/db/sku-import-writes.ts'
import type { ProductCounts } from '#shared/sheet/products.ts'
import type { RowResult } from '#shared/sheet/types.ts'
import {
  PREVIEW_ROWS,
  PROBLEMS_KEPT,
  type BarcodeSummary,
  type DryRunReport,
  type PreviewRow,
  type ReportedProblem,
} from './import-protocol.ts'

/** Barcodes seen, with how often, so repeats are counted once each. */
class BarcodeTally {
  private readonly seen = new Map<string, number>()

  add(barcode: string) {
    if (barcode) this.seen.set(barcode, (this.seen.get(barcode) ?? 0) + 1)
  }

  summary(): BarcodeSummary {
    let repeated = 0
    for (const times of this.seen.values()) if (times > 1) repeated++
    return { distinct: [...this.seen.keys()], repeated }
  }
}

function keep(into: ReportedProblem[], problems: RowResult['errors'], severity: ReportedProblem['severity']) {
  for (const problem of problems) {
    if (into.length >= PROBLEMS_KEPT) return
    into.push({ ...problem, severity })
  }
}

/**
 * Adds up a dry run a stretch of rows at a time. What it keeps is bounded: the counts, the first
 * rows for the preview, the first `PROBLEMS_KEPT` errors and as many warnings, and the barcodes (one string a row).
 */
export class DryRunTally {
  private rows = 0
  private valid = 0
  private withWarnings = 0
  private invalid = 0
  private errorCount = 0
  private warningCount = 0
  private readonly preview: PreviewRow[] = []
  // Kept apart so a file full of warnings cannot push its errors out of what is kept.
  private readonly errors: ReportedProblem[] = []
  private readonly warnings: ReportedProblem[] = []
  private readonly validBarcodes = new BarcodeTally()
  private readonly allBarcodes = new BarcodeTally()
  private readonly conversions = new ConversionTally()
  private readonly groups = new ProblemGrouper()
  /** Each row's content by the draft it names or its barcode (the file's last row wins, as "update" does). */
  private readonly fingerprints = new Map<string, RowFingerprint>()
  private readonly reading: ContentReading
  private readonly held: ReadonlySet<string>

  /**
   * `reading`: how the file's rows compare with drafts (a sheet's cells, or JSON exactly).
   * `held`: the barcodes drafts hold. Only a row that could update a draft (it names one, or its
   * barcode is held) is fingerprinted: a first import of 100,000 rows fingerprints none.
   */
  constructor(reading: ContentReading, held: ReadonlySet<string>) {
    this.reading = reading
    this.held = held
  }

  add(results: readonly RowResult[]) {
    this.conversions.add(results)
    for (const result of results) {
      this.rows++
      const barcode = textOf(result.sku.barcode)
      if (result.draft || (barcode && this.held.has(barcode))) {
        const fingerprint = payloadFingerprint(result.sku, this.reading)
        const valid = result.errors.length === 0
        this.fingerprints.set(
          result.draft ? `draft ${result.draft}` : `barcode ${barcode}`,
          result.draft ? { draft: result.draft, fingerprint, valid } : { barcode, fingerprint, valid },
        )
      }
      this.allBarcodes.add(barcode)
      if (result.errors.length) this.invalid++
      else {
        this.valid++
        this.validBarcodes.add(barcode)
        if (result.warnings.length) this.withWarnings++
      }
      this.errorCount += result.errors.length
      this.warningCount += result.warnings.length
      this.groups.add('error', result.errors)
      this.groups.add('warning', result.warnings)
      keep(this.errors, result.errors, 'error')
      keep(this.warnings, result.warnings, 'warning')
      if (this.preview.length < PREVIEW_ROWS) {
        this.preview.push({
          row: result.row,
          productName: textOf(result.sku.productName),
          brand: textOf(result.sku.brand),
          barcode,
          category: textOf(result.sku.category),
          errors: result.errors.length,
          warnings: result.warnings.length,
        })
      }
    }
  }

  /** The report, but for what the drafts say of it (`taken`, read by the worker). */
  report(documentErrors: string[], products?: ProductCounts): Omit<DryRunReport, 'taken'> {
    return {
      ...(products && { products }),
      conversions: this.conversions.counts,
      groups: this.groups.list,
      fingerprints: [...this.fingerprints.values()],
      filled: this.conversions.filled,
      rows: this.rows,
      valid: this.valid,
      withWarnings: this.withWarnings,
      invalid: this.invalid,
      preview: this.preview,
      problems: [...this.errors, ...this.warnings],
      errorCount: this.errorCount,
      warningCount: this.warningCount,
      documentErrors,
      barcodes: { valid: this.validBarcodes.summary(), all: this.allBarcodes.summary() },
    }
  }
}
