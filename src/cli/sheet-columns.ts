import { KEEP_COLUMN_PREFIX } from '#shared/sheet/columns.ts'
import { applyMappingFile, type SheetMapping } from '#shared/sheet/mapping.ts'
import { matchOptionsOf, type ProductLayout } from '#shared/sheet/products.ts'
import { ShopIds } from '#shared/sheet/shop-id.ts'
import type { ColumnMatch } from '#shared/sheet/types.ts'
import { applyCommandLine, type SheetOptions } from './sheet-options.ts'

/** How a sheet's columns are read, once its header is known. */
export interface ReadColumns {
  headers: string[]
  layout: ProductLayout
  mapping: SheetMapping
  matches: ColumnMatch[]
  shopIds: ShopIds
}

/**
 * What the CLI learns of a sheet's columns beside the pipeline that reads its rows
 * (src/shared/sheet/read-rows.ts, the app's import's too): the mapping, from the mapping file
 * given and the format's layout; the shop's own id of each row (shop-id.ts), which `push` names;
 * and the columns without a header that hold something, said in the notes since their cells are
 * not read.
 */
export class SheetColumns {
  /** Known once the pipeline reaches the header (`prepare`). */
  read: ReadColumns | undefined
  /** Columns without a header that hold something. */
  readonly filled = new Set<number>()
  /** Columns without a header that have held nothing so far. */
  private readonly headerless = new Set<number>()

  private readonly options: SheetOptions

  constructor(options: SheetOptions) {
    this.options = options
  }

  /** The mapping of the rows under these headers (the pipeline's `mapping`). */
  prepare(headers: string[], layout: ProductLayout): SheetMapping {
    const { mapping, matches } = applyMappingFile(headers, this.options.mapping, matchOptionsOf(layout))
    applyCommandLine(mapping, this.options)
    headers.forEach((header, column) => {
      if (header.trim() === '') this.headerless.add(column)
    })
    // A column read into a field is not the shop's id; one kept as an extra field (keep:…) still is.
    const fills = (column: number) => {
      const path = mapping.columns[column]
      return path != null && !path.startsWith(KEEP_COLUMN_PREFIX)
    }
    this.read = { headers, layout, mapping, matches, shopIds: new ShopIds(headers, layout, fills) }
    return mapping
  }

  /** A stretch of rows as read, in file order: the shop's id of each, and the headerless columns they fill. */
  take(rows: readonly string[][]): (string | undefined)[] {
    for (const column of this.headerless) {
      if (rows.some((cells) => (cells[column] ?? '').trim() !== '')) {
        this.filled.add(column)
        this.headerless.delete(column)
      }
    }
    // Every row, in file order: a Shopify variant row may take its Handle from the row above.
    return rows.map((cells) => this.read!.shopIds.next(cells))
  }
}
