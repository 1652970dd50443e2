/** Why a file could not be read as a sheet at all. The UI and the CLI show `message` as it is. */
export type SheetFileErrorCode =
  | 'empty'
  | 'no-header'
  | 'binary'
  | 'not-utf8'
  | 'too-large'
  | 'too-many-columns'
  | 'huge-cell'
  | 'unclosed-quote'
  | 'one-column'
  | 'not-xlsx'
  | 'old-xls'
  /** A web page (an HTML table), as some shops export under an .xls name (file-kind.ts). */
  | 'web-page'
  | 'aborted'
  /** PrestaShop's combinations file without the products file it names (prestashop.ts). */
  | 'needs-products'
  /** Shopify's inventory export: stock counts, no products (shopify-inventory.ts). */
  | 'inventory-export'
  /** Two files given together that are not PrestaShop's products and combinations files. */
  | 'not-a-pair'
  /** An XML feed: not well-formed, a DOCTYPE, or XML that is no product feed (xml-feed.ts). */
  | 'not-xml'
  | 'xml-doctype'
  | 'not-a-feed'
  /** A JSON product list's mapping that spreads two lists into SKUs (read-rows.ts). */
  | 'unusable-mapping'

export class SheetFileError extends Error {
  readonly code: SheetFileErrorCode

  constructor(code: SheetFileErrorCode, message: string) {
    super(message)
    this.name = 'SheetFileError'
    this.code = code
  }
}
