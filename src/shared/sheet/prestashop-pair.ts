import { streamCsv, type CsvHandlers, type CsvStreamOptions } from './csv.ts'
import { SheetFileError } from './errors.ts'
import { headerWords } from './header-words.ts'
import { thousands, type PairFiles } from './places.ts'
import { inEnglish } from './prestashop-headers.ts'
import { COMBINATIONS_ALONE, isCombinationsAlone, isProductsFile } from './prestashop.ts'

/**
 * PrestaShop's products file and its combinations file read as one sheet, streamed as `streamCsv`
 * streams one file, so every reader of sheets (the CLI, the app's import) takes the pair as it
 * takes a file: one header, then rows.
 *
 * The header is the products file's, then the combinations file's columns it does not have. The
 * rows are the products file's, then the combinations file's, each cell under the column of the
 * same words ("Reference" under "Reference #", "Image URL" under "Image URLs (x;y;z...)",
 * "Product ID*" under "Product ID" or "ID"). Row N is the products file's row N up to its last,
 * then the combinations file's in order: a person is told each row's file and its line there
 * (places.ts). Which file is which is told by their headers, in either order. prestashop.ts reads
 * the rows.
 */

export interface PairInput {
  /** The file's name, for messages. */
  name: string
  input: string | Blob
}

/** The header of a CSV, reading no more of it than that. */
async function headerOf(input: string | Blob): Promise<string[]> {
  const stop = new AbortController()
  let headers: string[] = []
  try {
    await streamCsv(
      input,
      {
        onHeader: (cells) => {
          headers = cells
          stop.abort()
        },
        onRows: () => undefined,
      },
      { signal: stop.signal, chunkBytes: 64 * 1024 },
    )
  } catch (error) {
    if (!stop.signal.aborted) throw error
  }
  return headers
}

/** Words a combinations column and a products column are matched by: "Image URLs" and "Image URL" alike. */
const keyOf = (header: string) =>
  headerWords(inEnglish(header))
    .words.split(' ')
    .map((word) => (word.length > 3 ? word.replace(/s$/, '') : word))
    .join(' ')

/**
 * Which of two files is the products file and which the combinations file, by their headers;
 * a SheetFileError when they are not such a pair.
 */
export async function prestashopPair(
  files: readonly [PairInput, PairInput],
): Promise<{ products: PairInput; combinations: PairInput; headers: [string[], string[]] }> {
  const headers = await Promise.all(files.map((file) => headerOf(file.input)))
  const isCombinations = (at: number) => isCombinationsAlone(headers[at]!)
  const at = isCombinations(1) ? 1 : isCombinations(0) ? 0 : undefined
  if (at === undefined)
    throw new SheetFileError(
      'not-a-pair',
      `Neither ${files[0].name} nor ${files[1].name} is PrestaShop’s combinations file (combinations_import.csv, with the columns "Attribute (Name:Type:Position)*" and "Value (Value:Position)*"): two files are read together only as PrestaShop’s products and combinations files.`,
    )
  const other = at === 0 ? 1 : 0
  if (!isProductsFile(headers[other]!))
    throw new SheetFileError(
      'not-a-pair',
      `${files[other].name} is not PrestaShop’s products file (products_import.csv, with "Product ID", "Name *" and list columns such as "Categories (x,y,z...)"), which the combinations file ${files[at].name} needs.`,
    )
  return {
    products: files[other],
    combinations: files[at],
    headers: [headers[other]!, headers[at]!],
  }
}

/**
 * How a reader of the pair learns which rows are which file's, to say where a row is: `onFiles` is
 * called before the products file's rows (its `products.rows` is Infinity: not counted yet), and
 * again before the combinations file's, with the products file's rows counted.
 */
export interface PairHandlers extends CsvHandlers {
  onFiles?(files: PairFiles): void
}

/**
 * Streams the pair as one sheet (see above). `onRows` is called with the products' rows, then the
 * combinations', with progress over both files' bytes. Returns the rows read, the notes of both
 * files' reading, and the files with where the combinations' rows start.
 */
export async function streamPrestashopPair(
  files: readonly [PairInput, PairInput],
  handlers: PairHandlers,
  options: CsvStreamOptions = {},
): Promise<{ rows: number; notes: string[]; files: PairFiles }> {
  const pair = await prestashopPair(files)
  const [productHeaders, combinationHeaders] = pair.headers
  const byKey = new Map<string, number>()
  productHeaders.forEach((header, column) => {
    const key = keyOf(header)
    if (key && !byKey.has(key)) byKey.set(key, column)
  })
  const idColumn = byKey.get('product id') ?? byKey.get('id')
  const headers = [...productHeaders]
  const taken = new Set<number>()
  // Where each of the combinations file's columns goes in the sheet.
  const target = combinationHeaders.map((header) => {
    const key = keyOf(header)
    const column = key === 'product id' ? idColumn : byKey.get(key)
    if (column !== undefined && !taken.has(column)) {
      taken.add(column)
      return column
    }
    headers.push(header)
    return headers.length - 1
  })
  const size = (input: string | Blob) => (typeof input === 'string' ? input.length : input.size)
  const productBytes = size(pair.products.input)
  const total = productBytes + size(pair.combinations.input)
  handlers.onHeader(headers)
  const names = { products: pair.products.name, combinations: { name: pair.combinations.name } }
  handlers.onFiles?.({ products: { name: names.products, rows: Infinity }, combinations: names.combinations })

  const products = await streamCsv(
    pair.products.input,
    {
      onHeader: () => undefined,
      onRows: (rows, read) => {
        for (const cells of rows) while (cells.length < headers.length) cells.push('')
        return handlers.onRows(rows, { bytes: read.bytes, total })
      },
    },
    options,
  )
  const pairFiles: PairFiles = {
    products: { name: names.products, rows: products.rows },
    combinations: names.combinations,
  }
  handlers.onFiles?.(pairFiles)
  const combinations = await streamCsv(
    pair.combinations.input,
    {
      onHeader: () => undefined,
      onRows: (rows, read) => {
        const placed = rows.map((cells) => {
          const row = Array.from({ length: headers.length }, () => '')
          cells.forEach((text, column) => (row[target[column]!] = text))
          return row
        })
        return handlers.onRows(placed, { bytes: productBytes + read.bytes, total })
      },
    },
    options,
  )
  const where = (name: string, note: string) => `${name}: ${note}`
  return {
    rows: products.rows + combinations.rows,
    files: pairFiles,
    notes: [
      `${pair.products.name}'s rows (${thousands(products.rows)}) and ${pair.combinations.name}'s (${thousands(combinations.rows)}) are read as one sheet; each problem names its file and line`,
      ...products.notes.map((note) => where(pair.products.name, note)),
      ...combinations.notes.map((note) => where(pair.combinations.name, note)),
    ],
  }
}

/** Said of a combinations file given alone, with how to give both here (the CLI's words or the app's). */
export function combinationsAlone(how: string): string {
  return `${COMBINATIONS_ALONE} ${how}.`
}
