import { SheetFileError } from './errors.ts'
import { headerWords, wordsOf } from './header-words.ts'
import { inEnglish } from './prestashop-headers.ts'
import { cellAt } from './cell-at.ts'

/**
 * PrestaShop's product import files, as its back office takes them (Advanced parameters › Import)
 * and as its own samples write them (`docs/csv_import/`): a **products** file, one row a product,
 * and a **combinations** file, one row a variant of a product (its attributes, such as Color:
 * Blue and Disk space: 16GB, its own EAN13, UPC, reference and picture), linked by `Product ID`.
 *
 * Two dialects: PrestaShop 1.7 to 9 separate columns with `;` and join the lists inside a cell
 * with `,` (`Categories (x,y,z...)`, `Color:color:0, Disk space:select:1`); 1.6 and its fork
 * thirty bees separate columns with `,` and join lists with `;` (`Categories (x;y;z...)`). The
 * header's hint says which (header-words.ts); csv.ts finds the column separator.
 *
 * Given both files, they are read as one sheet (prestashop-pair.ts): the products file's columns,
 * then the combinations file's columns that the products file does not have; the products' rows,
 * then the combinations', each cell under the products' column of the same words (its EAN13 under
 * EAN13, its `Image URL` under `Image URLs`). A product with combinations is no SKU: each of its
 * combinations is, with the product's cells where its own are empty (name, brand, category,
 * picture), never its codes, and its options from the attribute and value cells. A product
 * without combinations is a SKU of its own. The combinations file alone names products it does
 * not hold, and is refused ({@link COMBINATIONS_ALONE}).
 */

/** Where a PrestaShop sheet keeps what the format reads itself, by column position. */
export interface PrestashopColumns {
  /** `Product ID` (or `ID`): the product's, and on a combination's row the product it belongs to. */
  id: number
  /** The products' `Reference #`, and a combination's `Product Reference` (thirty bees), which may name its product instead. */
  reference?: number
  productReference?: number
  /** `Attribute (Name:Type:Position)*` and `Value (Value:Position)*`: present once a combinations file is read with the products. */
  attribute?: number
  value?: number
  /** How lists are joined inside a cell: the headers' hint, else PrestaShop's default. */
  list: ',' | ';'
  /** A combination's own columns: its codes and attributes, never its product's. */
  own: number[]
  structural: [column: number, reading: string][]
}

/** The shop's own codes, which a combination has of its own (an empty one is empty, not its product's). */
const CODES = new Set(['ean13', 'upc', 'isbn', 'mpn', 'reference', 'supplier reference'])

/** A header's words, PrestaShop's own columns in English whatever the file's language (prestashop-headers.ts). */
const wordsOfHeader = (header: string) => headerWords(inEnglish(header)).words

/** The columns of a combinations file that say what it is: its product, and its attributes and values. */
function combinationColumns(headers: readonly string[]) {
  const raw = headers.map((header) => wordsOf(inEnglish(header)))
  const attribute = raw.indexOf('attribute name type position')
  const value = raw.indexOf('value value position')
  return attribute < 0 || value < 0 ? undefined : { attribute, value }
}

/** Whether these headers are PrestaShop's combinations file (with or without the products' columns). */
function hasCombinations(headers: readonly string[]): boolean {
  return combinationColumns(headers) !== undefined
}

/** Whether these headers are PrestaShop's products file: a product id, a name, and a list hint. */
export function isProductsFile(headers: readonly string[]): boolean {
  const words = headers.map(wordsOfHeader)
  const id = words.some((w) => w === 'product id' || w === 'id')
  const name = words.includes('name')
  return id && name && headers.some((header) => headerWords(header).list !== undefined)
}

/** Whether these headers are PrestaShop's combinations file alone, without the products file it names. */
export function isCombinationsAlone(headers: readonly string[]): boolean {
  return hasCombinations(headers) && !isProductsFile(headers)
}

/** Said of a combinations file given alone; the CLI and the app add how to give both. */
export const COMBINATIONS_ALONE =
  'It is PrestaShop’s combinations file: it lists variants of the products in PrestaShop’s products file (products_import.csv), and names them only by their Product ID: give both files'

/**
 * The layout of a PrestaShop sheet (the products file, alone or read with its combinations), or
 * undefined for any other. A combinations file alone is refused with a SheetFileError.
 */
export function prestashopColumns(headers: readonly string[]): PrestashopColumns | undefined {
  if (isCombinationsAlone(headers)) throw new SheetFileError('needs-products', `${COMBINATIONS_ALONE}.`)
  if (!isProductsFile(headers)) return undefined
  const combination = combinationColumns(headers)
  const words = headers.map(wordsOfHeader)
  const at = (...names: string[]) => {
    const index = words.findIndex((w) => names.includes(w))
    return index < 0 ? undefined : index
  }
  const id = at('product id', 'id')!
  const list = headers.map((header) => headerWords(header).list).find(Boolean) ?? ','
  const structural: [number, string][] = []
  // PrestaShop's Width, Height, Depth and Weight are the package's (its Shipping tab), not the product's.
  words.forEach((w, index) => {
    if (/^(width|height|depth|weight)$/.test(w))
      structural.push([index, 'The shipping package’s size or weight, not the product’s'])
  })
  const own = words.flatMap((w, index) => (CODES.has(w) ? [index] : []))
  const reference = at('reference')
  const productReference = at('product reference')
  if (combination) {
    structural.push([id, 'Links each combination to its product'])
    structural.push([combination.attribute, 'A combination’s attributes (its options’ names)'])
    structural.push([combination.value, 'A combination’s values (its options)'])
    own.push(combination.attribute, combination.value)
    if (productReference !== undefined)
      structural.push([productReference, 'Names the combination’s product by its reference'])
  }
  return {
    id,
    ...(reference !== undefined && { reference }),
    ...(productReference !== undefined && { productReference }),
    ...combination,
    list,
    own,
    structural,
  }
}

/** What one row of a PrestaShop sheet is. */
export type PrestashopRow =
  /** A product without combinations: a SKU of its own. */
  | { kind: 'product' }
  /** A product whose combinations are its SKUs. */
  | { kind: 'parent' }
  /** A combination, with its product's row (undefined when the products file does not hold it). */
  | { kind: 'combination'; product: readonly string[] | undefined; options?: Record<string, string> }

/**
 * The products of a PrestaShop sheet read with its combinations, found in a first pass (every
 * product's row by its id and reference, and the products the combinations name), then each row
 * told apart.
 */
export class PrestashopProducts {
  private readonly products = new Map<string, string[]>()
  private readonly named = new Set<string>()
  readonly columns: PrestashopColumns

  constructor(columns: PrestashopColumns) {
    this.columns = columns
  }

  /** Whether rows need a first pass: only when combinations are read with their products. */
  get needed(): boolean {
    return this.columns.attribute !== undefined
  }

  private isCombination(cells: readonly string[]): boolean {
    return cellAt(cells, this.columns.attribute) !== '' || cellAt(cells, this.columns.value) !== ''
  }

  /** The key a combination names its product by: its Product ID, else its Product Reference. */
  private productKey(cells: readonly string[]): string | undefined {
    const id = cellAt(cells, this.columns.id)
    if (id) return `id:${id}`
    const reference = cellAt(cells, this.columns.productReference)
    return reference ? `ref:${reference}` : undefined
  }

  add(cells: readonly string[]) {
    if (this.isCombination(cells)) {
      const key = this.productKey(cells)
      if (key) this.named.add(key)
      return
    }
    const id = cellAt(cells, this.columns.id)
    const reference = cellAt(cells, this.columns.reference)
    if (id) this.products.set(`id:${id}`, [...cells])
    if (reference) this.products.set(`ref:${reference}`, [...cells])
  }

  read(cells: readonly string[]): PrestashopRow {
    if (!this.isCombination(cells)) {
      const id = cellAt(cells, this.columns.id)
      const reference = cellAt(cells, this.columns.reference)
      const named =
        (id !== '' && this.named.has(`id:${id}`)) || (reference !== '' && this.named.has(`ref:${reference}`))
      return { kind: named ? 'parent' : 'product' }
    }
    const key = this.productKey(cells)
    const options = combinationOptions(
      cellAt(cells, this.columns.attribute),
      cellAt(cells, this.columns.value),
      this.columns.list,
    )
    return {
      kind: 'combination',
      product: key === undefined ? undefined : this.products.get(key),
      ...(options && { options }),
    }
  }
}

/**
 * A combination's options from its attribute and value cells, paired by position:
 * `Color:color:0, Disk space:select:1` and `Blue:0, 16GB:1` are Color: Blue and Disk space: 16GB.
 * An attribute is `Name:Type:Position` and a value `Value:Position`; the type and positions (the
 * order of the shop's menus) are not the product's. A name or value with a colon of its own keeps it.
 */
export function combinationOptions(
  attributes: string,
  values: string,
  list: ',' | ';',
): Record<string, string> | undefined {
  const split = (text: string) =>
    text
      .split(list)
      .map((entry) => entry.trim())
      .filter(Boolean)
  // The type is how the shop shows the attribute's choices (a menu, buttons, colour swatches).
  const names = split(attributes).map((entry) =>
    entry.replace(/\s*:\s*(select|radio|color)\s*(:\s*\d+\s*)?$/i, ''),
  )
  const given = split(values).map((entry) => entry.replace(/\s*:\s*\d+\s*$/, ''))
  const options: Record<string, string> = {}
  names.forEach((name, at) => {
    const value = given[at]
    if (name && value) options[name] = value
  })
  return Object.keys(options).length ? options : undefined
}
