import { headerWords, namesWords, wordsOf } from './header-words.ts'
import { cellAt } from './cell-at.ts'

/**
 * Akeneo PIM's product CSV export (semicolon-separated; `sku;categories;enabled;family;parent;
 * groups;…`, or `sku` first and the rest in alphabetical order in its 1.x exports), as its export
 * job writes it and its own catalogs' fixtures are.
 *
 * - **Variants.** Since Akeneo 2, a variant product names its product model in `parent`, and the
 *   export writes each variant with its models' values (name, colour, pictures) beside its own:
 *   the variants of one model share their name and differ by the model's axes (`size`, `color`).
 *   Akeneo 1.x has no `parent`: a variant group in `groups` holds a product's variants. Which
 *   attributes are the axes is the family variant's, not in the file: they are found as the
 *   columns whose values differ between the variants of one product and are option codes (`xs`,
 *   `crimson_red`, `410`), as an axis must be a simple select (or a yes/no) in Akeneo. Columns a
 *   field reads (the barcode's `ean`, the category's `categories`), names, descriptions and prices
 *   of a locale or a currency (`name-en_US`, `price-EUR`) and measures (`weight` beside
 *   `weight-unit`) are never axes.
 * - A variant whose name it shares with another of its product's is named with the axes' values its
 *   name does not say already ("Braided hat – m"; "Akeneo T-Shirt black … – xs", black being said).
 *   Variants named apart in the file keep their names.
 * - Everything else (locale and unit suffixes, codes as categories, media as paths in the export's
 *   archive) is read as any PIM's sheet is (header-words.ts, convert.ts).
 */

/** Where an Akeneo sheet keeps what the format reads itself, by column position. */
export interface AkeneoColumns {
  /** The column that ties a product's variants together: `parent`, else (1.x) `groups`. */
  product: number
  /** Its name columns (`name`, `name-en_US`, `name-fr_FR`): what a variant is called already. */
  names: number[]
  /** Columns that may be an axis, by header: neither the format's own, nor a name, nor of a locale, currency or unit. */
  axes: { column: number; name: string }[]
  structural: [column: number, reading: string][]
}

/** Columns every Akeneo product export has, beside `parent` or `groups`. */
const AKENEO_COLUMNS = ['family', 'categories', 'enabled']

/** Akeneo's own columns and its associations (`X_SELL-products`, `PACK-groups`): never an axis. */
const NOT_AXIS = /^(sku|uuid|family|parent|groups|categories|enabled|.+-(groups|products|product_models))$/i

/** A price in one currency, `price-EUR`: Akeneo writes a column a currency. */
const CURRENCY_SUFFIX = /-[A-Z]{3}$/

/** An option's code: letters, digits and underscores only (`xs`, `crimson_red`, `410`). */
const OPTION_CODE = /^\w+$/

/** A number as long as a GTIN is an identifier, never an option's code. */
const IDENTIFIER = /^\d{8,}$/

/** The layout of Akeneo's product export, or undefined for any other sheet. */
export function akeneoColumns(headers: readonly string[]): AkeneoColumns | undefined {
  const words = headers.map((header) => wordsOf(header))
  const at = (name: string) => {
    const index = words.indexOf(name)
    return index < 0 ? undefined : index
  }
  if (!AKENEO_COLUMNS.every((name) => words.includes(name))) return undefined
  const parent = at('parent')
  const groups = at('groups')
  const product = parent ?? groups
  if (product === undefined) return undefined
  const structural: [number, string][] = [
    parent === undefined
      ? [product, 'Akeneo’s groups: a variant group’s products are the variants of one product']
      : [product, 'Names the product model whose variant the product is'],
  ]
  const units = new Set(headers.flatMap((header) => (/-unit$/i.test(header) ? [header.slice(0, -5)] : [])))
  const names: number[] = []
  const axes: AkeneoColumns['axes'] = []
  headers.forEach((header, index) => {
    const read = headerWords(header)
    if (read.words === 'name') names.push(index)
    else if (
      !read.locale &&
      !NOT_AXIS.test(header) &&
      !CURRENCY_SUFFIX.test(header) &&
      !/-unit$/i.test(header) &&
      !units.has(header)
    )
      axes.push({ column: index, name: header })
  })
  return { product, names, axes, structural }
}

/** What one row of an Akeneo sheet is: a product alone, or a variant with the axes that tell it apart. */
export interface AkeneoRow {
  /** Its product's key when it has variants in the file (two rows or more). */
  product?: string
  /** The axes' values its name does not say, by column header, when its name is another variant's too. */
  options?: Record<string, string>
}

/** One product's variants, as the first pass finds them. */
interface Variants {
  rows: number
  /** Each column's values among them, for the columns that may be an axis. */
  values: Map<number, Set<string>>
  /** Whether each column's values are all option codes. */
  codes: Set<number>
  /** How many of them go by each name. */
  names: Map<string, number>
}

/**
 * An Akeneo sheet's products with variants, found in a first pass (a variant's axes are the
 * columns that differ between it and the others of its product, wherever in the file they are),
 * then each row told apart.
 */
export class AkeneoProducts {
  private readonly products = new Map<string, Variants>()
  readonly columns: AkeneoColumns

  constructor(columns: AkeneoColumns) {
    this.columns = columns
  }

  add(cells: readonly string[]) {
    const key = cellAt(cells, this.columns.product)
    if (!key) return
    let variants = this.products.get(key)
    if (!variants) {
      const axes = this.columns.axes.map((axis) => axis.column)
      variants = { rows: 0, values: new Map(), codes: new Set(axes), names: new Map() }
      this.products.set(key, variants)
    }
    variants.rows++
    for (const { column } of this.columns.axes) {
      const value = cellAt(cells, column)
      if (!value) continue
      if (!OPTION_CODE.test(value) || IDENTIFIER.test(value)) variants.codes.delete(column)
      const values = variants.values.get(column) ?? new Set()
      values.add(value)
      variants.values.set(column, values)
    }
    const name = this.nameOf(cells)
    variants.names.set(name, (variants.names.get(name) ?? 0) + 1)
  }

  /** `fields`: columns a field reads (the barcode's, the category's), never an axis. */
  read(cells: readonly string[], fields: ReadonlySet<number>): AkeneoRow {
    const key = cellAt(cells, this.columns.product)
    const variants = key ? this.products.get(key) : undefined
    if (!variants || variants.rows < 2) return {}
    const name = this.nameOf(cells)
    if ((variants.names.get(name) ?? 0) < 2) return { product: key }
    const options: Record<string, string> = {}
    for (const { column, name: axis } of this.columns.axes) {
      const value = cellAt(cells, column)
      const differs = (variants.values.get(column)?.size ?? 0) > 1 && variants.codes.has(column)
      if (value && differs && !fields.has(column) && !namesWords(name, value)) options[axis] = value
    }
    return { product: key, ...(Object.keys(options).length && { options }) }
  }

  /** The row's names in every locale, as one text. */
  private nameOf(cells: readonly string[]): string {
    return this.columns.names.map((column) => cellAt(cells, column)).join(' ')
  }
}
