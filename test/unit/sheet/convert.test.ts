import { describe, expect, it } from 'vitest'
import { convertCell } from '#shared/sheet/convert.ts'
import { readSheet, rowToSku } from '#shared/sheet/rows.ts'
import { validateSku } from '#shared/validation/validate.ts'
import { automaticMapping, DEFAULT_SETTINGS, type SheetMapping } from '#shared/sheet/mapping.ts'
import { DRAFT_COLUMN } from '#shared/sheet/app-columns.ts'

/** A mapping of these columns alone: no fixed values, no defaults filled. */
const only = (columns: (string | null)[]): SheetMapping => ({
  ...DEFAULT_SETTINGS,
  fillDefaults: false,
  columns,
})

describe('convertCell: by the field’s kind, never by the look of the text', () => {
  it.each([
    ['meta.lensWidth', '52', '52'],
    ['meta.lensWidth', ' 52 ', '52'],
    ['barcode', '0012345', '0012345'],
    ['arEffect.envSettings.intensity', '52', 52],
    ['arEffect.envSettings.intensity', ' -2.5 ', -2.5],
    ['arEffect.envSettings.intensity', '1e-3', 0.001],
    ['arEffect.envSettings.intensity', '.5', 0.5],
    ['isActive', 'true', true],
    ['isActive', 'FALSE', false],
    ['isActive', 'Yes', true],
    ['isActive', 'no', false],
    ['isActive', '1', true],
    ['isActive', ' 0 ', false],
    // In the languages whose headers the import reads: a French sheet's Visible said Oui and Non.
    ['isActive', 'Oui', true],
    ['isActive', 'non', false],
    ['isActive', 'Ja', true],
    ['isActive', 'Nein', false],
    ['isActive', 'Sí', true],
    ['isActive', 'Sì', true],
    ['isActive', 'Não', false],
    ['isActive', 'tak', true],
    ['arEffect.effectAssets2D.0', 'null', null],
    ['arEffect.effectAssets2D.0', '{"url":"https://x.example/a.png"}', { url: 'https://x.example/a.png' }],
    ['json:customField', '{"a":[1,2]}', { a: [1, 2] }],
    ['json:customField', '"text"', 'text'],
  ])('%s: %j → %j', (path, text, value) => {
    const converted = convertCell(path, text)
    expect('value' in converted && converted.value).toEqual(value)
  })

  it.each([
    ['brand', ''],
    ['brand', '   '],
    ['arEffect.envSettings.intensity', ''],
    ['isActive', ''],
    ['json:customField', ''],
  ])('an empty cell leaves %s absent', (path, text) => {
    expect(convertCell(path, text)).toEqual({ value: undefined })
  })

  it.each(['orgId', 'actionUrl'])('an empty cell is empty text in %s, which allows it', (path) => {
    expect(convertCell(path, '')).toEqual({ value: '' })
  })

  it.each([
    ['arEffect.envSettings.intensity', 'high', 'Intensity must be a number, not the text "high"'],
    ['arEffect.envSettings.intensity', '0x10', 'Intensity must be a number, not the text "0x10"'],
    ['arEffect.envSettings.intensity', 'Infinity', 'Intensity must be a number, not the text "Infinity"'],
    [
      'arEffect.envSettings.intensity',
      '1,5',
      'Intensity must be a number with a dot for decimals and no thousands separator (such as 1234.5), not the text "1,5"; if this file writes decimals with a comma, say so and it is read as one',
    ],
    [
      'arEffect.transform.position.x',
      '1,234.5',
      'Position X must be a number with a dot for decimals and no thousands separator (such as 1234.5), not the text "1,234.5"',
    ],
    ['isActive', 'maybe', 'Active must be yes or no (true/false, Y/N, 1/0), not the text "maybe"'],
    [
      'arEffect.effectAssets2D.1',
      '[1]',
      '2D asset 2 must be empty, null or a JSON object such as {"url": "https://…"}; not a list of 1',
    ],
  ])('%s: %j is an error naming the field', (path, text, message) => {
    expect(convertCell(path, text)).toEqual({ error: message })
  })

  it('a slot cell that is not JSON says so', () => {
    expect(convertCell('arEffect.effectAssets2D.0', '{url}')).toEqual({
      error: expect.stringMatching(/^2D asset 1 must be empty, null or a JSON object .*; it is not JSON/),
    })
  })
})

// A tryout's Odoo export writes each product's picture as base64, over lines: each cell was read
// as "several images", printed whole in the note, and refused as an address.
describe('a picture’s own data in an image cell', () => {
  it.each([
    ['iVBORw0KGgoAAAANSUhEUgAAATYAAAD6CAMAAAAcP5vg\nAAAABGdBTUEAALGPC//xhBQAAAAFzUkdC\n'],
    ['/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQE'],
    ['data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB'],
  ])('%j is no picture, said with its start', (text) => {
    expect(convertCell('productImage', text)).toEqual({
      value: undefined,
      conversion: { kind: 'picture-data', from: `${text.trim().slice(0, 16)}…`, to: '' },
    })
  })

  it('an address is an address', () => {
    expect(convertCell('productImage', 'https://a.example/iVBORw0KGgo.png')).toEqual({
      value: 'https://a.example/iVBORw0KGgo.png',
    })
  })
})

describe('image cells of several addresses', () => {
  it.each([
    // WooCommerce's Images, a feed's additional images.
    ['https://a.example/1.jpg, https://a.example/2.jpg'],
    // Squarespace's Hosted Image URLs: one space between addresses.
    ['https://a.example/1.jpg https://a.example/2.jpg'],
    ['https://a.example/1.jpg\nhttps://a.example/2.jpg'],
    // A shop's own WordPress export joined them with semicolons: one broken address was sent.
    ['https://a.example/1.jpg;https://a.example/2.jpg'],
    ['https://a.example/1.jpg; https://a.example/2.jpg'],
  ])('%j: the first is the product image, said as a conversion', (text) => {
    expect(convertCell('productImage', text)).toEqual({
      value: 'https://a.example/1.jpg',
      conversion: { kind: 'first-image', from: text, to: 'https://a.example/1.jpg' },
    })
  })

  it('addresses without their scheme are split too, the first read with https', () => {
    const text = 'www.shop.nl/1.jpg,www.shop.nl/2.jpg'
    expect(convertCell('productImage', text)).toEqual({
      value: 'https://www.shop.nl/1.jpg',
      conversion: { kind: 'first-image', from: text, to: 'https://www.shop.nl/1.jpg' },
    })
  })

  it('an address with a space in its own path is one address, left for validation to judge', () => {
    expect(convertCell('productImage', 'https://a.example/my photo.jpg')).toEqual({
      value: 'https://a.example/my photo.jpg',
    })
  })
})

// A tryout's real sheets: a shop's own export listed each product's categories with semicolons,
// and its "type" column (matched as the sub-category) held WooCommerce's and Magento's kinds of
// product, which went to the platform as sub-categories.
describe('category cells', () => {
  it('a list joined by semicolons keeps its most specific category, said as a conversion', () => {
    const text = 'Dečaci; Noviteti - Dečaci; Setovi'
    expect(convertCell('category', text)).toEqual({
      value: 'Setovi',
      conversion: { kind: 'category-list', from: text, to: 'Setovi' },
    })
    // A comma may be a category's own ("Bags, Wallets"): no list without the header saying so.
    expect(convertCell('category', 'Bags, Wallets')).toEqual({ value: 'Bags, Wallets' })
  })

  it.each([
    ['subCategory', 'variable'],
    ['subCategory', 'Configurable'],
    ['subCategory', 'simple, downloadable'],
    ['category', 'variation'],
    // Odoo's Product Type, as its import sheet and its own export (`type`) write it.
    ['category', 'Stockable Product'],
    ['category', 'Service'],
    ['category', 'Consumable'],
    ['subCategory', 'consu'],
    ['subCategory', 'product'],
  ] as const)('%s %j, a kind of product, is read as empty and said so', (path, text) => {
    expect(convertCell(path, text)).toEqual({
      value: undefined,
      conversion: { kind: 'product-kind', from: text, to: '' },
    })
  })

  // A real Wix shop's collections, in no order: "Deals 3 for 120;New Arrivals;Tops" gave its SKUs
  // the category "Deals 3 for 120", "Marine Collection;Pendants" the category "Marine Collection".
  it.each([
    ['Deals 3 for 120;New Arrivals;Tops', 'Tops'],
    ['Tops;Sale', 'Tops'],
    ['Marine Collection;Pendants', 'Pendants'],
    ['Home; Women; Dresses', 'Dresses'],
    // Only collections to sell by: the first is kept.
    ['Sale;New Arrivals', 'Sale'],
  ])('a list %j keeps %j, not a collection to sell by', (text, kept) => {
    expect(convertCell('category', text)).toEqual({
      value: kept,
      conversion: { kind: 'category-list', from: text, to: kept },
    })
  })

  it('a sub-category with such a word in it is a sub-category', () => {
    expect(convertCell('subCategory', 'Variable focus lenses')).toEqual({ value: 'Variable focus lenses' })
  })

  // A tryout's real exports: PrestaShop's "Categories (x,y,z...)" of ids gave 1,232 SKUs the
  // category "13", and WooCommerce's "Uncategorized" ("Sin categorizar" in a Spanish shop's) went
  // to the platform as every product's category; both passed the check that a category is there.
  it.each([
    ['category', '13', 'category-number'],
    ['category', '2; 13', 'category-number'],
    ['category', 'Uncategorized', 'no-category'],
    ['category', ' Sin categorizar ', 'no-category'],
    ['subCategory', 'Non classé', 'no-category'],
    // A person's placeholder (a real beauty template's "NONE" passed the check that a category is there).
    ['category', 'NONE', 'no-category'],
    ['category', 'n/a', 'no-category'],
  ] as const)('%s %j names no category: read as empty and said so', (path, text, kind) => {
    expect(convertCell(path, text)).toEqual({
      value: undefined,
      conversion: { kind, from: text.trim(), to: '' },
    })
  })

  it('in a list, what names no category is dropped and the rest read', () => {
    expect(convertCell('category', 'Discord Bots, Uncategorized')).toEqual({
      value: 'Discord Bots',
      conversion: { kind: 'no-category', from: 'Discord Bots, Uncategorized', to: 'Discord Bots' },
    })
    // The rest of a semicolon list is still a list: its most specific category is kept.
    expect(convertCell('category', 'Women; 13; Dresses')).toMatchObject({
      value: 'Dresses',
      conversion: { kind: 'category-list' },
    })
    // A name with a number in it is a name.
    expect(convertCell('category', 'Series 7')).toEqual({ value: 'Series 7' })
  })
})

describe('web addresses written without their scheme', () => {
  // A Dutch shop's export wrote every picture from "www.", and all 2,791 rows were invalid.
  it.each([
    ['productImage', '//cdn.shopify.com/s/files/1/a.jpg?v=1', 'https://cdn.shopify.com/s/files/1/a.jpg?v=1'],
    [
      'productImage',
      'www.kappersleverancier.nl/cdn/shop/files/15.png?v=1',
      'https://www.kappersleverancier.nl/cdn/shop/files/15.png?v=1',
    ],
    ['actionUrl', ' www.example.com ', 'https://www.example.com'],
  ] as const)('%s %j is read as %j, said as a conversion', (field, text, address) => {
    expect(convertCell(field, text)).toEqual({
      value: address,
      conversion: { kind: 'scheme-added', from: text, to: address },
    })
  })

  it.each([['example.com/a.png'], ['www'], ['www. example.com/a.png'], ['//'], ['ftp://example.com/a.png']])(
    '%j is left as written, for validation to refuse',
    (text) => {
      expect(convertCell('productImage', text)).toEqual({ value: text })
    },
  )

  it('the app’s own export is read as written', () => {
    expect(convertCell('productImage', 'www.example.com/a.png', { asExported: true })).toEqual({
      value: 'www.example.com/a.png',
    })
  })
})

describe('barcode cells', () => {
  it('keep their digits as text, leading zeros too, without the spaces around them', () => {
    expect(convertCell('barcode', ' 0012345678905 ')).toEqual({ value: '0012345678905' })
    expect(convertCell('barcode', 'ABC-12 34')).toEqual({ value: 'ABC-12 34' })
    expect(convertCell('barcode', '  ')).toEqual({ value: undefined })
  })

  // A real Dutch export wrote "No barcode found" in 693 rows, and a web page's address in one: each
  // was a barcode, and 693 SKUs shared one.
  it.each([
    ['No barcode found'],
    ['N/A'],
    ['n/a'],
    ['none'],
    ['---'],
    ['https://www.nishman.com.tr/homepage'],
  ])('%j holds no barcode (no digit): read as none, said as a conversion', (text) => {
    expect(convertCell('barcode', ` ${text} `)).toEqual({
      value: undefined,
      conversion: { kind: 'no-barcode', from: text, to: '' },
    })
  })

  it.each([['KZKL'], ['EG00000001'], ['040102 172250'], ['GUT-100'], ['８９０１ ２３４５']])(
    '%j may be a shop’s barcode (a digit, or one code of letters): kept',
    (text) => {
      expect(convertCell('barcode', text)).toEqual({ value: text })
      expect(convertCell('barcode', text, { asExported: true })).toEqual({ value: text })
    },
  )

  // The rule's first form backtracked: 46 s for a cell of 160k characters, where a cell may hold a
  // megabyte. This one (400k) would not end within the test's time limit in that form.
  it('reads a long cell of words with a digit at its end as written', () => {
    const cell = `${'a '.repeat(200_000)}1`
    expect(convertCell('barcode', cell)).toEqual({ value: cell })
  })

  // Shopify's export writes its barcodes so (a real shop's products_export_1.csv: "'7350177880121").
  it('lose the apostrophe a spreadsheet wrote before the digits to keep them text, said as a conversion', () => {
    expect(convertCell('barcode', "'7350177880121")).toEqual({
      value: '7350177880121',
      conversion: { kind: 'text-mark', from: "'7350177880121", to: '7350177880121' },
    })
    expect(convertCell('barcode', " '0012 3456 ")).toMatchObject({ value: '0012 3456' })
    // Not before other text, nor when the app's own export wrote the draft's barcode so.
    expect(convertCell('barcode', "'Gold-7")).toEqual({ value: "'Gold-7" })
    expect(convertCell('barcode', "''123")).toEqual({ value: "''123" })
    expect(convertCell('barcode', "'7350177880121", { asExported: true })).toEqual({
      value: "'7350177880121",
    })
  })

  it.each(['8.90123E+12', '8,90123E+12', '1.23457e+19', '9E+12'])(
    'keep %s, a number the spreadsheet shortened, for validation to refuse (in a row: an error)',
    (text) => {
      expect(convertCell('barcode', text)).toEqual({ value: text })
      const row = rowToSku([text], ['Barcode'], only(['barcode']), 3)
      expect(row.errors).toEqual([
        {
          row: 3,
          column: 'Barcode',
          value: text,
          message: `Barcode "${text}" was shortened to a number by a spreadsheet, and its digits are lost: format the column as text and type the barcode again`,
        },
      ])
    },
  )

  // A tryout's Etsy listings (its SKU column taken for the barcode, as the importer's note said
  // to) sent one SKU with a barcode of 1,797 characters: its variations' codes joined by commas.
  it.each([
    [
      '66F927A9CDAD6_5436,66F927A9CDAD6_5437,66F927A9CDAD6_5438',
      3,
      '“66F927A9CDAD6_5436”, “66F927A9CDAD6_5437”, …',
    ],
    ['4006381333931; 4006381333948', 2, '“4006381333931”, “4006381333948”'],
    ['4006381333931\n4006381333948', 2, '“4006381333931”, “4006381333948”'],
  ])('a cell listing codes, %j, is an error naming them', (text, codes, shown) => {
    const row = rowToSku([text], ['Barcode'], only(['barcode']), 1)
    expect(row.errors.map((error) => error.message)).toEqual([
      `Barcode holds ${codes} codes, not one (${shown}): keep this SKU’s own, or give each code a row of its own`,
    ])
  })

  it.each(['4,006,381,333,931', 'KZKL', 'Gold-7, rose'])('%j is no list of codes', (text) => {
    expect(convertCell('barcode', text)).not.toHaveProperty('error')
  })

  it.each(['4006E12', '123E45', '1e5', 'ABC-1E+5'])(
    'take %s, a code that only looks like a number',
    (text) => {
      expect(rowToSku([text], ['Barcode'], only(['barcode']), 1).errors).toEqual([])
    },
  )
})

// A tryout's sheet of foundation shades (a shade column taken as option:Shade) gave 625 SKUs named
// "Fit Me", and a JSON dump of a shop's glosses sent Shopify's "Default Title" as a shade.
describe('a row’s own option columns', () => {
  const headers = ['Name', 'Shade']
  const mapping = only(['productName', 'option:Shade'])
  it('name a row whose name does not say them, said as a conversion', () => {
    const read = rowToSku(['Fit Me', '120 Classic Ivory'], headers, mapping, 1)
    expect(read.sku).toMatchObject({
      productName: 'Fit Me – 120 Classic Ivory',
      options: { Shade: '120 Classic Ivory' },
    })
    expect(read.conversions).toContainEqual({
      field: 'productName',
      kind: 'variant-name',
      from: 'Fit Me',
      to: 'Fit Me – 120 Classic Ivory',
    })
  })

  it('leave a name that says them, and take Shopify’s "Default Title" for no option', () => {
    expect(
      rowToSku(['Fit Me 120 Classic Ivory', '120 Classic Ivory'], headers, mapping, 1).sku.productName,
    ).toBe('Fit Me 120 Classic Ivory')
    const placeholder = rowToSku(['Lip Plumper', 'Default Title'], headers, mapping, 1)
    expect(placeholder.sku).toEqual({ productName: 'Lip Plumper' })
  })
})

describe('rowToSku', () => {
  const headers = ['Name', 'Intensity', 'Active', 'Lens width', 'Slot 3', 'Model 3', 'Model 1', 'Notes']
  const mapping = [
    'productName',
    'arEffect.envSettings.intensity',
    'isActive',
    'meta.lensWidth',
    'arEffect.effectAssets2D.2',
    'arEffect.effectAssets3D.2.url',
    'arEffect.effectAssets3D.0.url',
    null,
  ]

  it('assembles the SKU by path: slots as seven, 3D assets up to the highest position used', () => {
    const result = rowToSku(
      [
        'Aviator',
        '1.2',
        'yes',
        '52',
        '{"a":1}',
        'https://x.example/3.glb',
        'https://x.example/1.glb',
        'ignored',
      ],
      headers,
      only(mapping),
      4,
    )
    expect(result.sku).toEqual({
      productName: 'Aviator',
      isActive: true,
      arEffect: {
        envSettings: { intensity: 1.2 },
        effectAssets2D: [null, null, { a: 1 }, null, null, null, null],
        effectAssets3D: [{ url: 'https://x.example/1.glb' }, {}, { url: 'https://x.example/3.glb' }],
      },
      meta: { lensWidth: '52' },
    })
    expect(result.errors).toEqual([])
    expect(result.row).toBe(4)
    expect(result.warnings).toContainEqual({
      row: 4,
      column: '',
      value: '',
      message: 'Asset ID of 3D asset 1 is missing',
    })
    // Fields no column fills are warned about with column ''.
    expect(result.warnings).toContainEqual({ row: 4, column: '', value: '', message: 'Brand is missing' })
  })

  // A tryout's import said "Age group: Product details is not filled (optional)": the section's
  // missing read as its first column's.
  // A Magento admin grid's export writes " -" in every empty cell: its EAN column gave eight
  // products the barcode "-", and its Thumbnail an error on every product with an EAN.
  it('a cell holding only a dash is empty, and said so; a dash inside text is text', () => {
    const headers = ['productName', 'EAN', 'Thumbnail']
    const [row] = readSheet({ headers, rows: [['Venti ruit-45', ' -', ' -']] }).results
    expect(row!.sku).not.toHaveProperty('barcode')
    expect(row!.sku).not.toHaveProperty('productImage')
    expect(row!.errors).toEqual([])
    expect(row!.conversions).toContainEqual({ field: 'barcode', kind: 'dash-empty', from: '-', to: '' })
    expect(convertCell('productName', 'Venti - blauw')).toEqual({ value: 'Venti - blauw' })
  })

  it('a whole section not filled is the row’s warning, not the first of its columns’', () => {
    // As the app's own export is read back: no defaults filled in.
    const headers = ['productName', 'Age group', 'Gender', 'Brand']
    const mapping = { ...automaticMapping(headers), fillDefaults: false }
    const [result] = readSheet({ headers, rows: [['Aviator', '', '', '']] }, mapping).results
    expect(result!.warnings).toContainEqual({
      row: 1,
      column: '',
      value: '',
      message: 'Product details is missing',
    })
    // A field's own column still answers for it.
    expect(result!.warnings).toContainEqual({
      row: 1,
      column: 'Brand',
      value: '',
      message: 'Brand is missing',
    })
  })

  it('leaves the 2D list absent when no slot cell is filled', () => {
    const result = rowToSku(['Aviator', '', '', '', '', '', '', ''], headers, only(mapping), 1)
    expect(result.sku).toEqual({ productName: 'Aviator' })
  })

  it('conversion errors carry row, column (the header as written) and the cell; no "missing" repeats them', () => {
    const result = rowToSku(['Aviator', 'high', 'maybe', '', '', '', '', ''], headers, only(mapping), 12)
    expect(result.errors).toEqual([
      {
        row: 12,
        column: 'Intensity',
        value: 'high',
        message: 'Intensity must be a number, not the text "high"',
      },
      {
        row: 12,
        column: 'Active',
        value: 'maybe',
        message: 'Active must be yes or no (true/false, Y/N, 1/0), not the text "maybe"',
      },
    ])
    expect(result.warnings.map((w) => w.message)).not.toContain('Active is missing')
    // Imported with its errors, the draft keeps what the file said, and is invalid until fixed.
    expect(result.sku).toMatchObject({ isActive: 'maybe', arEffect: { envSettings: { intensity: 'high' } } })
    expect(
      validateSku(result.sku)
        .errors.map((problem) => problem.path)
        .sort(),
    ).toEqual(['arEffect.envSettings.intensity', 'isActive'])
  })

  it('schema errors are placed at the column that filled the field', () => {
    const result = rowToSku(['Aviator', '', '', '', '', '', 'models/a.glb', ''], headers, only(mapping), 2)
    expect(result.errors).toEqual([
      {
        row: 2,
        column: 'Model 1',
        value: 'models/a.glb',
        message:
          'Model address of 3D asset 1 must be a web address starting with http:// or https://, not the text "models/a.glb"',
      },
    ])
  })

  it('removes the apostrophe that escaped a formula character, and only that', () => {
    const result = rowToSku(["'=SUM(A1)", "'-2.5"], ['Name', 'Brand'], only(['productName', 'brand']), 1)
    expect(result.sku).toMatchObject({ productName: '=SUM(A1)', brand: '-2.5' })
    const kept = rowToSku(["'quoted'", "''=x"], ['Name', 'Brand'], only(['productName', 'brand']), 1)
    expect(kept.sku).toMatchObject({ productName: "'quoted'", brand: "'=x" })
  })

  it('empty cells of allowEmpty fields are "" and short rows are fine', () => {
    const result = rowToSku([''], ['Org'], only(['orgId', 'actionUrl']), 1)
    expect(result.sku).toEqual({ orgId: '', actionUrl: '' })
  })
})

describe('rows that real sheets hold', () => {
  const settings = { ...DEFAULT_SETTINGS, fillDefaults: true }

  it('a row with nothing of its own (a totals line) stays no SKU, fixed values and defaults or not', () => {
    const mapping: SheetMapping = {
      ...settings,
      columns: ['productName', 'barcode', null],
      constants: { status: 'DRAFT' },
    }
    const stray = rowToSku(['', '', '12.00'], ['Product Name', 'EAN', 'Price'], mapping, 7)
    expect(stray.sku).toEqual({})
    expect(stray.errors.map((error) => error.message)).toEqual([expect.stringMatching(/not a SKU|none of/i)])
    const real = rowToSku(['Aviator', '0012', '12.00'], ['Product Name', 'EAN', 'Price'], mapping, 8)
    expect(real.sku).toMatchObject({ productName: 'Aviator', barcode: '0012', status: 'DRAFT' })
  })

  it('two columns given one field: the first fills it on every row, as the matcher says', () => {
    const mapping = only(['barcode', 'barcode'])
    expect(rowToSku(['111', '222'], ['EAN', 'Barcode'], mapping, 1).sku).toEqual({ barcode: '111' })
    expect(rowToSku(['', '222'], ['EAN', 'Barcode'], mapping, 2).sku).toEqual({})
  })

  it('a comma in plain category text is no list; codes the platform suggests are', () => {
    const read = (category: string) =>
      rowToSku(['A', category], ['Name', 'Category'], only(['productName', 'category']), 1).sku
    expect(read('Sun, Sea & Sand')).toEqual({ productName: 'A', category: 'Sun, Sea & Sand' })
    expect(read('eyewear,sunglasses')).toEqual({
      productName: 'A',
      category: 'eyewear',
      subCategory: 'sunglasses',
    })
    expect(read('Eyewear > Sunglasses, Sale')).toEqual({
      productName: 'A',
      category: 'eyewear',
      subCategory: 'sunglasses',
    })
  })
})

describe('a decimal comma in a length', () => {
  it('is refused with the way to say the file writes them, and read when it is said', () => {
    const refused = convertCell('meta.frameWidth', '142,5')
    expect('error' in refused && refused.error).toBe(
      'Frame width must be a number with a dot for decimals and no thousands separator (such as 1234.5), not the text "142,5"; if this file writes decimals with a comma, say so and it is read as one',
    )
    const read = rowToSku(
      ['142,5 mm'],
      ['Frame width'],
      { ...only(['meta.frameWidth']), decimalComma: true },
      1,
    )
    expect(read.sku).toEqual({ meta: { frameWidth: '142.5' } })
    expect(read.conversions).toEqual([
      { field: 'meta.frameWidth', kind: 'unit-dropped', from: '142,5 mm', to: '142.5' },
    ])
  })
})

describe('a shop’s status column that answers yes or no', () => {
  // PrestaShop's back office exports its product list with Status 1 or 0 (a real Polish shop's
  // export, with the English header): its "0" went to the platform as the status "0".
  const headers = ['Product ID', 'Image', 'Name', 'Reference', 'Category', 'Status']
  const sheet = (
    statuses: string[],
    more: { header: string; cells: string[] } = { header: '', cells: [] },
  ) => ({
    headers: more.header ? [...headers, more.header] : headers,
    rows: statuses.map((status, at) => [
      String(at + 1),
      `https://shop.example/img/p/${at + 1}.jpg`,
      `Chandelier ${at + 1}`,
      `imported_${at + 1}`,
      'Chandeliers',
      status,
      ...(more.cells[at] === undefined ? [] : [more.cells[at]!]),
    ]),
  })

  it('is read as Active, said as a conversion, and the status left to the platform’s own', () => {
    const { results } = readSheet(sheet(['0', '1', 'Enabled', 'disabled', 'PUBLISHED']))
    expect(results.map((result) => [result.sku.isActive, result.sku.status])).toEqual([
      [false, 'DRAFT'],
      [true, 'DRAFT'],
      [true, 'DRAFT'],
      [false, 'DRAFT'],
      // A status the platform takes stays the status (Active: the new-SKU default).
      [false, 'PUBLISHED'],
    ])
    expect(results[0]!.conversions).toContainEqual({
      field: 'status',
      kind: 'status-answer',
      from: '0',
      to: 'false',
    })
    expect(
      results.every((result) => result.warnings.every((warning) => !/Status/.test(warning.message))),
    ).toBe(true)
  })

  it('an Active column of its own wins over the status’s answer', () => {
    const { results } = readSheet(sheet(['0', '1'], { header: 'Active', cells: ['yes', 'no'] }))
    expect(results.map((result) => result.sku.isActive)).toEqual([true, false])
  })

  it('a fixed status typed for every row is the person’s status, and the app’s own export’s is read as written', () => {
    const fixed = rowToSku(
      ['Aviator'],
      ['Name'],
      { ...only(['productName']), constants: { status: 'DRAFT' } },
      1,
    )
    expect(fixed.sku).toMatchObject({ status: 'DRAFT' })
    const own = rowToSku(
      ['Aviator', '0', 'd1'],
      ['productName', 'status', DRAFT_COLUMN],
      only(['productName', 'status']),
      1,
    )
    expect(own.sku).toEqual({ productName: 'Aviator', status: '0' })
  })

  // A WooCommerce API dump (a real Serbian shop's) heads its post status `status`, the contract's
  // path: its "publish" went to the platform as 96 SKUs' status "publish".
  it.each([
    ['publish', true],
    ['private', false],
    ['trash', false],
    ['archived', false],
  ] as const)('a shop’s %j in a column headed `status` is Active %j', (text, active) => {
    const read = rowToSku(['Aviator', text], ['name', 'status'], only(['productName', 'status']), 1)
    expect(read.sku).toEqual({ productName: 'Aviator', isActive: active })
    expect(read.conversions).toContainEqual({
      field: 'status',
      kind: 'status-answer',
      from: text,
      to: String(active),
    })
  })
})

describe('spaces around a text', () => {
  it('a sheet’s text cell is read without them, said; spaces inside stay; a column headed by its path is read exactly', () => {
    const { results } = readSheet({
      headers: ['Name', 'Brand'],
      rows: [[' Ensemble  Junior " Élégant" - Taille 04 ans ', 'Tommy Hilfiger ']],
    })
    expect(results[0]!.sku).toMatchObject({
      productName: 'Ensemble  Junior " Élégant" - Taille 04 ans',
      brand: 'Tommy Hilfiger',
    })
    expect(results[0]!.conversions).toContainEqual({
      field: 'productName',
      kind: 'spaces-trimmed',
      from: ' Ensemble  Junior " Élégant" - Taille 04 ans ',
      to: 'Ensemble  Junior " Élégant" - Taille 04 ans',
    })
    const asWritten = rowToSku(
      ['Aviator ', 'Acme '],
      ['productName', 'brand'],
      only(['productName', 'brand']),
      1,
    )
    expect(asWritten.sku).toEqual({ productName: 'Aviator ', brand: 'Acme ' })
  })
})
