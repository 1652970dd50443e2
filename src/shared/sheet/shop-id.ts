import { wordsOf } from './header-words.ts'
import type { PrestashopColumns } from './prestashop.ts'
import type { ProductLayout } from './products.ts'

/**
 * The shop's own id of each SKU row of a sheet: what the shop tells its products apart by, so a
 * file that lists one twice can say so (two rows of one product are rarely two SKUs). It is never
 * read into the SKU (a shop's code is not a barcode: field-words.ts) and holds nothing back.
 *
 * - WooCommerce: the row's ID, else its SKU (WooCommerce keeps SKUs unique).
 * - Shopify: the Variant ID where the export has one; else the Handle (a variant row may leave it
 *   empty: its product's) with the variant's option values, "hightop-sneaker / White / 9.5",
 *   since the variants of one product share its Handle.
 * - Google Merchant Center: the item's id.
 * - PrestaShop: the Product ID; a combination's row (read with the products, whatever the files'
 *   language) names its product by it, so its values come after it, "87 / 80 cm / Nogal arenado":
 *   the combinations of one product share its ID by design.
 * - Any other sheet: a column headed Variant ID, ID or Product ID, else SKU. Not in a sheet of
 *   combinations alone (with an "Attribute (Name:Type:Position)" column), whose Product ID names
 *   the product each combination belongs to.
 *
 * A column the mapping reads into a field (a SKU column mapped to the barcode) is no shop id: the
 * field's own checks speak for it.
 */
export class ShopIds {
  /** Where the ids are read, as the report says it (`column "ID"`, `column "Handle" with each variant's options`); undefined: none. */
  readonly column: string | undefined
  private readonly read: ((cells: readonly string[]) => string) | undefined

  /** The handle of the Shopify product being read: a variant row may leave it empty. */
  private handle = ''

  constructor(headers: readonly string[], layout: ProductLayout, mapped: (column: number) => boolean) {
    const words = headers.map((header) => wordsOf(header))
    const at = (...names: string[]) => {
      for (const name of names) {
        const index = words.findIndex((w, column) => w === name && !mapped(column))
        if (index >= 0) return index
      }
      return undefined
    }
    const cell = (index: number) => (cells: readonly string[]) => (cells[index] ?? '').trim()
    const column = (index: number | undefined) => {
      if (index === undefined || mapped(index)) return undefined
      return { header: `column "${headers[index]!}"`, read: cell(index) }
    }

    let found: { header: string; read: (cells: readonly string[]) => string } | undefined
    switch (layout.format) {
      case 'woocommerce':
        found = column(layout.id) ?? column(layout.sku)
        break
      case 'shopify':
        found = column(at('variant id')) ?? this.shopifyHandle(headers, layout)
        break
      case 'merchant-center':
        found = column(at('id'))
        break
      case 'prestashop':
        found = prestashopId(headers, layout.prestashop!, column)
        break
      default: {
        const combinations = words.some((w) => w.startsWith('attribute name'))
        found =
          column(combinations ? at('variant id') : at('variant id', 'id', 'product id')) ?? column(at('sku'))
      }
    }
    this.column = found?.header
    this.read = found?.read
  }

  /** The shop id of the next data row (rows are given in file order, every one of them). */
  next(cells: readonly string[]): string | undefined {
    const id = this.read?.(cells)
    return id ? id : undefined
  }

  private shopifyHandle(headers: readonly string[], layout: ProductLayout) {
    const { handle, title, options } = layout
    if (handle === undefined) return undefined
    return {
      header: `column "${headers[handle]}" with each variant's options`,
      read: (cells: readonly string[]) => {
        const own = (cells[handle] ?? '').trim()
        // A row with a Title starts a product; one without continues the product above.
        const starts = title !== undefined && (cells[title] ?? '').trim() !== ''
        if (own !== '' || starts) this.handle = own
        if (this.handle === '') return ''
        const values = options
          .map((option) => (cells[option.value] ?? '').trim())
          .filter((value) => value !== '' && value !== 'Default Title')
        return [this.handle, ...values].join(' / ')
      },
    }
  }
}

/**
 * PrestaShop's Product ID, with a combination's values after it (`80 cm:0,Nogal arenado:1`, each
 * value with its position) when the combinations are read with the products.
 */
function prestashopId(
  headers: readonly string[],
  { id, value, list }: PrestashopColumns,
  column: (
    index: number | undefined,
  ) => { header: string; read: (cells: readonly string[]) => string } | undefined,
) {
  if (value === undefined) return column(id)
  if (column(id) === undefined) return undefined
  return {
    header: `column "${headers[id]}" with each combination's values`,
    read: (cells: readonly string[]) => {
      const product = (cells[id] ?? '').trim()
      const values = (cells[value] ?? '')
        .split(list)
        .map((entry) => entry.replace(/:\s*\d+\s*$/, '').trim())
        .filter(Boolean)
      return product === '' ? '' : [product, ...values].join(' / ')
    },
  }
}
