import type { DuplicatePolicy, RowFate, RowFingerprint } from '#renderer/db/sku-import-writes.ts'
import type { ContentReading } from '#shared/payload-fingerprint.ts'
import type { ConversionCount, FilledCount } from '#shared/sheet/conversion-tally.ts'
import type { GroupedProblem, ProblemGroup, Severity } from '#shared/sheet/problem-groups.ts'
import type { MappingSettings, SheetMapping } from '#shared/sheet/mapping.ts'
import type { RowNumbering } from '#shared/sheet/places.ts'
import type { RowsProgress } from '#shared/sheet/read-rows.ts'
import type { FileKind } from '#shared/sheet/file-kind.ts'
import type { ProductCounts, ProductFormat } from '#shared/sheet/products.ts'
import type { ColumnMatch } from '#shared/sheet/types.ts'
import type { SavedMapping } from '#renderer/stores/saved-mappings.ts'
import type { DocumentKind } from '#shared/validation/document.ts'
import type { HoldReason } from '#shared/sync/send-gates.ts'
import type { RepeatedRows } from '#shared/sync/file-verdict.ts'
import type { RareValueRows } from '#shared/rare-values.ts'

/**
 * The messages between the import page and its worker. Reading, checking and writing the drafts
 * happen in the worker; the page notes the import under way (for a rollback after a crash), shows
 * its progress and what became of each row, and rolls it back when it is cancelled or fails. Every
 * request carries a job number, and every answer names the job it belongs to, so a late answer of
 * a cancelled job is recognised and dropped.
 */

/** Saved column mappings, kept by stores/saved-mappings.ts (shared with a team workspace). */
export type { SavedMapping }

/** `xml`: a Google Merchant Center feed (RSS 2.0 or Atom), read into a sheet's rows (xml-feed.ts). */
export type SheetFormat = FileKind

/** Rows read of the file so far, and how far through its bytes that is: the pipeline's (read-rows.ts). */
export type ReadProgress = RowsProgress

export interface RunOptions {
  /** Rows with errors are imported too (as drafts to fix in the app); otherwise only valid rows. */
  includeInvalid: boolean
  /** SKUs written at a time: one transaction each. */
  chunkSize: number
  duplicates: DuplicatePolicy
  /** How a row is compared with its draft for "unchanged": a sheet's cells cannot say what JSON can. */
  reading: ContentReading
  /**
   * What the dry run found the rows name: their barcodes, and the drafts the app's own export
   * names. The worker looks up the drafts holding them when the import begins.
   */
  barcodes: string[]
  drafts: string[]
}

/**
 * The send gates a dry run judges the rows by (src/shared/sync/send-gates.ts): the active
 * profile's, so that it holds back what the Sync page would once the rows are drafts.
 */
export interface DryRunGates {
  /** The profile's required fields besides the identity fields (`Profile.requiredFields`). */
  required: readonly string[]
  /** Who requires them, as a reason names it: the profile's name. */
  requiredBy: string
  /** Whether a barcode with a wrong check digit holds a row back (`Profile.holdBadCheckDigits`). */
  holdBadCheckDigits: boolean
  /** Whether the profile leads to the built-in Sandbox, which takes rows naming sample addresses (absent: no). */
  takesSamples?: boolean
  /** The header of the column the barcode is read from ('barcode' in JSON), to name it in a hold. */
  barcodeColumn: string
}

/**
 * `combinations`: PrestaShop's combinations file, given with `file` (its products file, or the
 * other way round: they are told apart by their headers) and read with it as one sheet.
 */
export type ImportRequest =
  | { type: 'analyse'; job: number; file: File; combinations?: File; saved: SavedMapping }
  | {
      type: 'dry-run'
      job: number
      file: File
      combinations?: File
      mapping: SheetMapping
      gates: DryRunGates
    }
  | { type: 'run'; job: number; file: File; combinations?: File; mapping: SheetMapping; options: RunOptions }
  /** The page noted the import's batch (`begun`): the worker may write. */
  | { type: 'noted'; job: number }
  | { type: 'cancel'; job: number }

export interface Analysis {
  format: SheetFormat
  /** The header row: a JSON product list's paths (json-table.ts); empty for JSON of SKUs, which needs no mapping. */
  headers: string[]
  /** Suggested field for each column. */
  matches: ColumnMatch[]
  /** Rows that give each column its first values (`sampleRows`), for the mapping screen's samples. */
  samples: string[][]
  /** Why the first row looks like data, not a header (header-as-data.ts), when it does. */
  headerAsData?: string
  /** What a JSON file of SKUs holds (none for a JSON product list). */
  documentKind?: DocumentKind
  /** Whose export it is, by its headers: its variants are read by that format's rule. */
  productFormat?: ProductFormat
  /** The language its headers are in, when not English (a WooCommerce export in the shop's language). */
  productLanguage?: string
  /** The settings the file starts with, judged from its headers alone (not the saved choices). */
  settings?: MappingSettings
  /**
   * PrestaShop's pair given combinations first: the page names (and saves the mapping of) the
   * products file first, whichever order the files came in.
   */
  pairSwapped?: true
}

/** One row of the dry run's preview table. */
export interface PreviewRow {
  /** The data row (the first under the header is 1), said by the report's `numbering`. */
  row: number
  productName: string
  brand: string
  barcode: string
  category: string
  errors: number
  warnings: number
  /** Why the send gates would hold the row back, when they would (a valid row only). */
  held?: string
}

/** Where a SKU of a chunk came from: its row in the file, and how many errors it has. */
export interface ChunkRow {
  row: number
  errors: number
  /** The draft the row names (the app's own export). */
  draft?: string
}

export interface ReportedProblem extends GroupedProblem {
  severity: Severity
}

/**
 * Barcodes of the rows an import would write, each once, how many the file holds twice or more,
 * and how many rows have none (no draft can be matched to them: each is added as a new draft).
 */
export interface BarcodeSummary {
  distinct: string[]
  repeated: number
  without: number
}

/**
 * What the drafts say of the rows an import would write: how many of their barcodes a draft
 * already holds, and under "update": how many rows would change nothing (their draft holds exactly
 * their content), how many would be left out because a sync run holds their draft, and, for each
 * destination, how many drafts created there would be changed since sent (the Sync page then
 * offers them as updates there).
 */
export interface TakenCounts {
  existing: number
  unchanged: number
  inRun: number
  changedAt: DestinationCount[]
  /**
   * Rows that name a draft you have (the app's own export, by its draft column): matched to it
   * whatever their barcode, and of those, the rows without one.
   */
  named: number
  namedWithoutBarcode: number
  /**
   * Rows the import would add as new drafts that are named as a draft you have without a barcode
   * (a shop's file imported again, a barcode column added to it or not): most likely a second
   * draft of the same product. The first such name.
   */
  namedLikeDrafts: number
  likeDraft?: string
}

/** Drafts at one destination (its address, as `DraftSync` keys it), counted. */
export interface DestinationCount {
  destination: string
  n: number
}

/** Rows the send gates would hold back, how many for each reason, as the Sync page counts drafts. */
export interface HeldCount {
  reason: HoldReason
  n: number
}

export interface DryRunReport {
  /**
   * How a person is told where each row is (places.ts): a sheet's line in the spreadsheet (the
   * header is line 1), a JSON file's or a feed's item, PrestaShop's pair by its file and line.
   * Every `row` of the report is the data row (the first under the header is 1), said so.
   */
  numbering: RowNumbering
  rows: number
  valid: number
  invalid: number
  /**
   * The file's verdict (src/shared/sync/file-verdict.ts), by the active profile's gates: valid
   * rows no gate holds back (`sendable`), and those held back (`heldBack`, by reason in the
   * gates' order). A row with errors is counted in `invalid`, never here.
   */
  sendable: number
  heldBack: number
  heldReasons: HeldCount[]
  /** The profile whose gates judged the rows, by its name (`DryRunGates.requiredBy`). */
  judgedBy: string
  /** Of the sendable rows, those that leave fields no gate requires empty ("not filled (optional)"). */
  sendableUnfilled: number
  /**
   * Rows that are the same SKU whole, the first `REPEATS_KEPT` groups (each with at most
   * `ROWS_KEPT` rows); `repeatedGroups` counts them all, `distinct` the SKUs once each.
   */
  repeated: RepeatedRows[]
  repeatedGroups: number
  distinct: number
  preview: PreviewRow[]
  /**
   * The first `PROBLEMS_KEPT` errors, then as many holds, then as many warnings, each in file
   * order. A hold is said on every row the gates would hold back by its own fields (one with errors
   * too, as its editor will say it), and on the valid rows that share a barcode.
   */
  problems: ReportedProblem[]
  errorCount: number
  /** Rows said held back from sending: `heldBack` and the rows with errors a gate would hold too. */
  heldCount: number
  /** The reasons said of them: a row held back for two has two. */
  heldProblems: number
  warningCount: number
  /** Problems with the file as a whole (a bulk request whose "skus" is not a list). */
  documentErrors: string[]
  /** What the reader said of the file as a whole: a workbook's other sheets, cells past the header. */
  fileNotes: string[]
  /** For the duplicates choice: over valid rows only, and over every row. */
  barcodes: { valid: BarcodeSummary; all: BarcodeSummary }
  /** For the duplicates choice, read from the drafts by the worker: over valid rows only, and every row. */
  taken: { valid: TakenCounts; all: TakenCounts }
  /** Products and variants the file holds (sheets; JSON is one SKU an item). */
  products?: ProductCounts
  /**
   * Each row by the draft it names or its barcode, with its content's fingerprint, the file's
   * last row of each winning as "update" does: which rows would change nothing.
   */
  fingerprints: RowFingerprint[]
  /** Every problem, grouped by column and kind with counts and rows: errors first. */
  groups: ProblemGroup[]
  /** How cells were read where they were not written as the contract writes them. */
  conversions: ConversionCount[]
  /** Defaults the template gave, by field. */
  filled: FilledCount[]
  /**
   * Values that look like typos of a common one ("Eyewaer" on 5 rows beside "eyewear" on 4,210),
   * each with its first rows: a question the dry run asks, never a problem (src/shared/rare-values.ts).
   */
  rareValues: RareValueRows[]
}

export type ImportResponse =
  | { type: 'analysed'; job: number; analysis: Analysis }
  | { type: 'progress'; job: number; progress: ReadProgress }
  | { type: 'report'; job: number; report: DryRunReport }
  /**
   * A run's undo batch: the page notes it (the import is rolled back if the app stops before it
   * ends) and answers `noted` before anything is written.
   */
  | { type: 'begun'; job: number; batch: string }
  /**
   * A chunk committed: the file's row of each SKU it held and what became of it (`fates`, same
   * order), and the rows left out since the last chunk for their errors.
   */
  | {
      type: 'written'
      job: number
      rows: ChunkRow[]
      fates: RowFate[]
      leftOut: number[]
      progress: ReadProgress
    }
  /** Every chunk of a run is written, the last one durably. */
  | { type: 'done'; job: number; progress: ReadProgress }
  /** Ended by `cancel`; a run's writes have stopped (the page rolls them back). */
  | { type: 'cancelled'; job: number }
  /** Ended by an error; a run's writes have stopped (the page rolls them back). */
  | { type: 'failed'; job: number; message: string }

/** A chunk the worker wrote. */
export type WrittenChunk = Extract<ImportResponse, { type: 'written' }>

/** Errors (and, apart, warnings) a dry run keeps to show and report; the counts go on. ~2 MB each. */
export const PROBLEMS_KEPT = 10_000
/** Groups of repeated rows a dry run names; `repeatedGroups` counts the rest. */
export const REPEATS_KEPT = 100
/** Rows shown in the dry run's preview. */
export const PREVIEW_ROWS = 20
/** Values shown of each column on the mapping screen, its first ones that are not empty. */
export const SAMPLE_ROWS = 3
