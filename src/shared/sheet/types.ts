import type { Sku } from '../schema/sku.ts'
import type { LengthUnit } from '../values/measure.ts'
import type { ValidationResult } from '../validation/problem.ts'

/**
 * Spreadsheets in and out: the words shared by the importer (renderer worker), the exporter and the
 * CLI. A sheet is a header row and data rows of text cells, whatever file it came from.
 */

/** A dotted contract path with list positions as numbers: `arEffect.effectAssets3D.0.url`. */
export type FieldPath = string

/** How one column of a file was matched to a field, so the mapping screen and the CLI can say why. */
export interface ColumnMatch {
  /** 0-based position of the column in the file. */
  column: number
  header: string
  /** The field the column fills, or null when it is ignored. */
  path: FieldPath | null
  /**
   * `path`: the header is a contract path; `title`: the catalogue's name for the field;
   * `synonym`: a usual word for it; `prefixed`: a usual word after a shop's prefix ("Variant
   * Barcode"); `saved`: the person's choice.
   */
  by: 'path' | 'title' | 'synonym' | 'prefixed' | 'saved' | 'none'
  /** Why, in words, for the mapping screen and `--show-mapping`. */
  why?: string
  /** A unit the header names ("Frame Width (mm)"): the cells are read in it. */
  unit?: LengthUnit
  /** A shop's own code (SKU, MPN, Handle): the barcode only when the person says so. */
  identifier?: true
  /** A column the file's format reads itself (Shopify's Handle, WooCommerce's Parent). */
  structural?: true
  /** A column the file's format reads as a field under its own rule (Wix's collections, `why`). */
  byFormat?: true
  /** Columns that could fill the same field and were left for this one. */
  rivals?: number[]
  /** For a column left for another: the field it could fill. */
  couldFill?: FieldPath
  /** Where columns contested a field: why the one that fills it was taken ("comes first in the file"). */
  contest?: string
  /**
   * For a column that matches nothing: the field its header looks like a typo of ("Prodcut Name",
   * Product name), not filled until the person says so, and only one no other column fills.
   */
  suggestion?: FieldPath
  /**
   * For a column the file's format reads itself: a field it fills at the person's word, offered
   * only when no other column fills it (a Merchant feed's google_product_category, the category).
   */
  offer?: FieldPath
}

/** The field each column fills, by column position (null: ignored). Saved and reused by header. */
export type ColumnMapping = (FieldPath | null)[]

/** A problem with one cell, as the error report lists it. */
export interface CellProblem {
  /** 1-based data row (the first row under the header is 1). */
  row: number
  /** The column's header as written in the file ('' for a problem with the whole row). */
  column: string
  value: string
  message: string
}

/** A cell read differently from how the contract writes it (Y → true, "52 mm" → "52"), by field. */
export interface RowConversion extends Conversion {
  field: FieldPath
}

/** One data row turned into a SKU payload, with its problems. */
export interface RowResult {
  row: number
  sku: Sku
  errors: CellProblem[]
  warnings: CellProblem[]
  /** Cells read differently from how they were written. */
  conversions?: RowConversion[]
  /** Fields the new-SKU template filled where the row had none (`arEffect.envSettings`). */
  filled?: string[]
  /** The draft a row of the app's own export names (its draft column): the one it updates. */
  draft?: string
  /**
   * What `validateSku` says of `sku` itself, before its problems were placed in cells: what a draft
   * of it stores as its validity (`draftColumns`), so an import does not check each row twice.
   */
  checked?: ValidationResult
}

/** How a cell was read when it was not written as the contract writes it; counted in the dry run. */
export interface Conversion {
  kind: ConversionKind
  /** The cell as written, and the value it became, as text. */
  from: string
  to: string
}

export type ConversionKind =
  /** Y/N, yes/no, 1/0 read as a yes or no. */
  | 'yes-no'
  /** A suggested value in another case ("Eyewear" → "eyewear"). */
  | 'spelling'
  /** A decimal comma read as the file says it writes decimals. */
  | 'decimal-comma'
  /** A unit written in the cell dropped, the number kept ("52 mm" → "52"). */
  | 'unit-dropped'
  /** A length converted to the field's unit ("5.2 cm" → "52"). */
  | 'unit-converted'
  /** "Eyewear > Sunglasses": the category, and its last step as the sub-category. */
  | 'category-path'
  /** Several image addresses in one cell: the first is the product image. */
  | 'first-image'
  /** A list of the categories a product is in: its last that is neither the shop’s root nor a collection to sell by. */
  | 'category-list'
  /** A variant without a name of its own: its product's name with its options ("Tee – Red / M"). */
  | 'variant-name'
  /** A barcode's leading apostrophe, a spreadsheet's mark for text, dropped ("'7350177880121"). */
  | 'text-mark'
  /** A cell holding only a dash, an export's "nothing here", read as empty. */
  | 'dash-empty'
  /** A barcode cell holding a placeholder or words, no digit ("No barcode found"), read as none. */
  | 'no-barcode'
  /** A web address written without its scheme ("//cdn…", "www.…"), read as https. */
  | 'scheme-added'
  /** A shop system's kind of product ("variable", "simple") in a category column, read as empty. */
  | 'product-kind'
  /** A category's number in the shop ("13"), not its name, read as empty (dropped from a list). */
  | 'category-number'
  /** WooCommerce's "Uncategorized" (in its languages), which says a product has none: read as empty. */
  | 'no-category'
  /** A picture's own data (base64, as Odoo exports it), not an address: read as no picture. */
  | 'picture-data'
  /** A picture's path in the shop ("/m/b/mb01.jpg") read with the address its pictures are at. */
  | 'image-base'
  /** A status that answers yes or no ("1", "Enabled"): the shop's on or off, read as Active. */
  | 'status-answer'
  /** Spaces before or after a text ("Braided hat "), which no name means, removed. */
  | 'spaces-trimmed'

/** A length read from a measure's cell; its unit is settled with the row's other cells (rows.ts). */
export interface Measure {
  amount: number
  /** The unit the cell wrote, or the header's. */
  unit?: LengthUnit
  /** Whether the cell itself wrote the unit ("52 mm"). */
  unitInCell: boolean
  /** The cell had a decimal comma. */
  decimalComma: boolean
}
