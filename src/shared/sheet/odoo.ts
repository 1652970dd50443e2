import { wordsOf } from './header-words.ts'
import { cellAt } from './cell-at.ts'

/**
 * Odoo's export of products (a list view's Export, "import-compatible"), told by its `id` column
 * (the record's external id, `product.product_product_7_product_template`) beside relations
 * written as `field/id` (`categ_id/id`, `taxes_id/id`) and lists' fields as `field/subfield`
 * (`packaging_ids/name`):
 *
 * - A record is its row with an `id`; the rows below it without one (nor a `name`) only carry the
 *   next entries of its lists (a second packaging, a pricelist's items): no SKU, counted.
 * - `type` is Odoo's kind of product: `product` (stockable) and `consu` (consumable) are goods,
 *   `service` is no physical product: skipped, counted.
 * - Relations and lists' fields are Odoo's records, not the product's fields (a category's external
 *   id is not its name): read by the format, not matched.
 *
 * `default_code` is the shop's own reference and `barcode` its barcode, matched as any sheet's.
 */
export interface OdooColumns {
  id: number
  name?: number
  type?: number
  structural: [column: number, reading: string][]
}

/** The layout of Odoo's product export, or undefined for any other sheet. */
export function odooColumns(headers: readonly string[]): OdooColumns | undefined {
  const trimmed = headers.map((header) => header.trim())
  const id = trimmed.indexOf('id')
  const relations = trimmed.filter((header) => /^\w+\/id$/.test(header)).length
  // Two relations at least: one "x/id" column may be anyone's.
  if (id < 0 || relations < 2) return undefined
  const words = headers.map((header) => wordsOf(header))
  const at = (name: string) => {
    const index = words.indexOf(name)
    return index < 0 ? undefined : index
  }
  const type = at('type')
  const structural: [number, string][] = [
    [id, 'Odoo’s id of the product: a row without one carries more of the product above’s lists'],
  ]
  if (type !== undefined)
    structural.push([
      type,
      'Odoo’s kind of product (product, consu or service): a service is no physical product',
    ])
  trimmed.forEach((header, index) => {
    if (header.includes('/'))
      structural.push([index, 'One of Odoo’s related records or a list’s field, not the product’s own'])
  })
  const name = at('name')
  return { id, ...(name !== undefined && { name }), ...(type !== undefined && { type }), structural }
}

/** What one row of an Odoo export is: a product, a service (no goods), or more of a product's lists. */
export type OdooRow = 'product' | 'no-goods' | 'list-entries'

export function odooRow(columns: OdooColumns, cells: readonly string[]): OdooRow {
  if (cellAt(cells, columns.id) === '' && cellAt(cells, columns.name) === '') return 'list-entries'
  return cellAt(cells, columns.type).toLowerCase() === 'service' ? 'no-goods' : 'product'
}
