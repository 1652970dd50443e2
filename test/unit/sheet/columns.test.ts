import { describe, expect, it } from 'vitest'
import { describeColumn, matchColumns, skuColumns } from '#shared/sheet/columns.ts'
import { leaves } from '#shared/schema/catalogue.ts'
import { skuCatalogue } from '#shared/validation/validate.ts'

const match = (headers: string[], saved?: Record<string, string | null>) =>
  matchColumns(headers, { saved }).map(({ path, by }) => [path, by])

describe('skuColumns', () => {
  it('lists every leaf of the catalogue in catalogue order, list items spread over positions', () => {
    const columns = skuColumns()
    const expected = leaves(skuCatalogue()).flatMap((leaf) => {
      if (leaf.path === 'arEffect.effectAssets2D.*')
        return Array.from({ length: 7 }, (_, i) => `arEffect.effectAssets2D.${i}`)
      if (leaf.path.startsWith('arEffect.effectAssets3D.*')) return []
      return [leaf.path]
    })
    const withoutAssets = columns.filter((column) => !column.startsWith('arEffect.effectAssets3D.'))
    expect(withoutAssets).toEqual(expected)
    expect(columns.filter((column) => column.startsWith('arEffect.effectAssets3D.'))).toEqual([
      'arEffect.effectAssets3D.0.id',
      'arEffect.effectAssets3D.0.url',
      'arEffect.effectAssets3D.1.id',
      'arEffect.effectAssets3D.1.url',
    ])
    expect(columns.indexOf('arEffect.effectAssets3D.0.id')).toBe(
      columns.indexOf('arEffect.effectAssets2D.6') + 1,
    )
  })

  it('spreads 3D assets over as many positions as asked', () => {
    expect(skuColumns({ assets3D: 3 }).filter((c) => c.endsWith('.url') && c.includes('3D'))).toHaveLength(3)
  })
})

describe('describeColumn', () => {
  it.each([
    ['arEffect.effectAssets3D.0.url', 'Model address of 3D asset 1'],
    ['arEffect.effectAssets3D.1.id', 'Asset ID of 3D asset 2'],
    ['arEffect.effectAssets2D.2', '2D asset 3'],
    ['arEffect.envSettings.intensity', 'Intensity'],
    ['meta.dimensions.width', 'Width'],
    ['json:customField', 'customField (JSON)'],
    ['notAField', 'notAField'],
  ])('%s → %s', (path, title) => {
    expect(describeColumn(path)).toBe(title)
  })
})

describe('matchColumns', () => {
  it('maps contract paths exactly as the contract spells them, positions included', () => {
    expect(
      match([
        'arEffect.transform.position.x',
        'meta.dimensions.width',
        'arEffect.effectAssets3D.0.url',
        'arEffect.effectAssets3D.4.id',
        'arEffect.effectAssets2D.6',
      ]),
    ).toEqual([
      ['arEffect.transform.position.x', 'path'],
      ['meta.dimensions.width', 'path'],
      ['arEffect.effectAssets3D.0.url', 'path'],
      ['arEffect.effectAssets3D.4.id', 'path'],
      ['arEffect.effectAssets2D.6', 'path'],
    ])
  })

  it('does not take section paths, star paths or an eighth 2D slot as columns', () => {
    expect(
      match(['arEffect.transform', 'arEffect.effectAssets3D.*.url', 'arEffect.effectAssets2D.7']),
    ).toEqual([
      [null, 'none'],
      [null, 'none'],
      [null, 'none'],
    ])
  })

  it.each(['Product name', 'product_name', 'PRODUCT NAME', ' product-name '])(
    'matches catalogue titles ignoring case, spaces and punctuation: %j',
    (header) => {
      expect(match([header])).toEqual([['productName', 'title']])
    },
  )

  it('matches titles with positions, and keys of fields', () => {
    expect(
      match(['Model address of 3D asset 2', 'Lens width', 'Intensity', 'lens_color_code', 'Sub-category']),
    ).toEqual([
      ['arEffect.effectAssets3D.1.url', 'title'],
      ['meta.lensWidth', 'title'],
      ['arEffect.envSettings.intensity', 'title'],
      ['meta.lensColorCode', 'title'],
      ['subCategory', 'title'],
    ])
  })

  it.each([
    ['name', 'productName'],
    ['Image URL', 'productImage'],
    ['photo', 'productImage'],
    ['EAN', 'barcode'],
    ['UPC', 'barcode'],
    ['GTIN', 'barcode'],
    ['sub category', 'subCategory'],
    ['enabled', 'isActive'],
    ['active', 'isActive'],
    ['URL', 'actionUrl'],
    ['Product URL', 'actionUrl'],
    ['link', 'actionUrl'],
    ['3D model', 'arEffect.effectAssets3D.0.url'],
    ['GLB', 'arEffect.effectAssets3D.0.url'],
    // A shop's own workbook: its categories were left unread.
    ['product_category_name', 'category'],
    ['Category name', 'category'],
  ])('synonym or title %j → %s', (header, path) => {
    expect(matchColumns([header])[0]?.path).toBe(path)
  })

  it('saved mappings by header text come first, null meaning "ignore"', () => {
    expect(match(['Nom', 'Brand', 'EAN'], { Nom: 'productName', Brand: null })).toEqual([
      ['productName', 'saved'],
      [null, 'saved'],
      ['barcode', 'synonym'],
    ])
  })

  it('a saved mapping claims its field before an automatic match of an earlier column', () => {
    expect(match(['productName', 'Titre'], { Titre: 'productName' })).toEqual([
      [null, 'none'],
      ['productName', 'saved'],
    ])
  })

  it('a field matched twice goes to the plainest name, then to the first column; the others say why', () => {
    const matches = matchColumns(['name', 'Product name', 'Title', 'productName'])
    expect(matches.map((m) => [m.column, m.header, m.path, m.by])).toEqual([
      [0, 'name', null, 'none'],
      [1, 'Product name', null, 'none'],
      [2, 'Title', null, 'none'],
      [3, 'productName', 'productName', 'path'],
    ])
    expect(matches[3]!.rivals).toEqual([1, 0, 2])
    expect(matches[1]!.couldFill).toBe('productName')
    expect(matches[1]!.why).toBe('“productName” fills Product name: it names it more plainly')
    const titled = matchColumns(['Title', 'Product name', 'name'])
    expect(titled.map((m) => m.path)).toEqual([null, 'productName', null])
    // Equally plain: the first in the file.
    expect(matchColumns(['name', 'Title']).map((m) => m.path)).toEqual(['productName', null])
    expect(matchColumns(['name', 'Title'])[1]!.why).toBe(
      '“name” fills Product name: it comes first in the file',
    )
  })

  it('maps json: columns to their path and ignores unknown headers', () => {
    expect(match(['json:customField', 'Notes', ''])).toEqual([
      ['json:customField', 'path'],
      [null, 'none'],
      [null, 'none'],
    ])
  })
})

describe('headers as shops and people write them', () => {
  it.each([
    'Barcode (EAN)',
    'EAN Barcode',
    'GTIN (EAN)',
    'UPC/EAN',
    'EAN / GTIN',
    'GTIN-13 (EAN)',
    'GTIN, UPC, EAN, or ISBN',
    'Bar code',
    'Variant Barcode',
    // A French grocer's import sheet, and the same words in the languages shops export in.
    'Ref_EAN',
    'Code EAN',
    'Código EAN',
    'Codice EAN',
    'EAN-Nummer',
    'Kod EAN',
    'N° EAN',
  ])('%j is a barcode column', (header) => {
    expect(matchColumns([header])[0]?.path).toBe('barcode')
  })

  // A shop's own sheet in Ukrainian and English (a tryout's): no name read, three jewels held.
  it('a language’s code after a field’s words is set aside; an id is no language', () => {
    const matches = matchColumns([
      'title_uk',
      'title_en',
      'brand-de',
      'image_id',
      'category_id',
      'barcode_no',
    ])
    expect(matches.map((match) => match.path)).toEqual(['productName', null, 'brand', null, null, 'barcode'])
    expect(matches[1]!.couldFill).toBe('productName')
  })

  // A real German shop system's article list: Artikeltext1 and Artikelgruppe ignored, 25 SKUs held
  // back for no name.
  it('a German article list’s text, group and maker', () => {
    expect(
      matchColumns(['Artikelnummer', 'Barcode', 'Artikeltext1', 'Artikelgruppe']).map((m) => m.path),
    ).toEqual([null, 'barcode', 'productName', 'category'])
    expect(matchColumns(['Bezeichnung', 'Warengruppe', 'Hersteller']).map((m) => m.path)).toEqual([
      'productName',
      'category',
      'brand',
    ])
  })

  // A real German idealo feed: "eans" and "categoryPath" were ignored, and its 9 SKUs held back
  // as having no barcode, each with a valid EAN-13.
  it('a price comparison feed’s codes and category path', () => {
    const headers = ['sku', 'brand', 'title', 'categoryPath', 'url', 'eans', 'imageUrls']
    expect(matchColumns(headers).map((match) => match.path)).toEqual([
      null,
      'brand',
      'productName',
      'category',
      'actionUrl',
      'barcode',
      'productImage',
    ])
  })

  // A real Italian price list: every row held back "without a product name", only Ean read.
  it('the main fields in the languages shops export in', () => {
    const headers = ['Cat', 'SCat', 'IdProd', 'Titolo', 'Descrizione', 'Marca', 'Ean', 'LinkImmagine']
    expect(matchColumns(headers).map((match) => match.path)).toEqual([
      'category',
      'subCategory',
      null,
      'productName',
      null,
      'brand',
      'barcode',
      'productImage',
    ])
    expect(matchColumns(['Nombre', 'Marca', 'Categoría', 'Imagen']).map((match) => match.path)).toEqual([
      'productName',
      'brand',
      'category',
      'productImage',
    ])
    expect(
      matchColumns(['Nom du produit', 'Marque', 'Catégorie', 'Sous-catégorie']).map((m) => m.path),
    ).toEqual(['productName', 'brand', 'category', 'subCategory'])
    // A real French grocery's sheet, and Odoo's product export in German: no name, no barcode read.
    expect(
      matchColumns(['Code EAN', 'Nom de l’article', 'Famille', 'Image']).map((match) => match.path),
    ).toEqual(['barcode', 'productName', 'category', 'productImage'])
    expect(matchColumns(['Libellé', 'Désignation']).map((match) => match.path)).toEqual(['productName', null])
    expect(
      matchColumns(['Strichcode', 'Code barres', 'Código de barras', 'Codice a barre']).map(
        (m) => m.couldFill ?? m.path,
      ),
    ).toEqual(['barcode', 'barcode', 'barcode', 'barcode'])
    // Squarespace's export: its pictures, and whether the product is shown.
    expect(matchColumns(['Hosted Image URLs', 'Visible']).map((match) => match.path)).toEqual([
      'productImage',
      'isActive',
    ])
  })

  // Etsy's listings download numbers its pictures IMAGE1 to IMAGE10 (a real one read none of them).
  it('the first of numbered pictures is the product image; the others fill nothing', () => {
    const matches = matchColumns(['TITLE', 'IMAGE1', 'IMAGE2', 'IMAGE3', 'Photo 1', 'Photo 2'])
    expect(matches.map((match) => match.path)).toEqual([
      'productName',
      'productImage',
      null,
      null,
      null,
      null,
    ])
    expect(matches[4]).toMatchObject({ couldFill: 'productImage' })
  })

  it.each(['SKU', 'SKU Code', 'Variant SKU', 'MPN', 'Google Shopping / MPN', 'Handle', 'Article number'])(
    '%j is a shop’s own code: not the barcode, and says so',
    (header) => {
      expect(matchColumns([header])[0]).toMatchObject({ path: null, identifier: true })
    },
  )

  it.each([
    ['Frame Width (mm)', 'meta.frameWidth', 'mm'],
    ['Lens width (in mm)', 'meta.lensWidth', 'mm'],
    ['frame_width-mm', 'meta.frameWidth', 'mm'],
    ['Temple length [cm]', 'meta.temple', 'cm'],
    ['Bridge (in)', 'meta.bridge', 'in'],
  ])('%j fills %s, read in %s', (header, path, unit) => {
    expect(matchColumns([header])[0]).toMatchObject({ path, unit })
  })

  it('a bare "Model" is a model name, not the 3D model’s address', () => {
    expect(matchColumns(['Model'])[0]?.path).toBeNull()
    expect(matchColumns(['3D model URL'])[0]?.path).toBe('arEffect.effectAssets3D.0.url')
  })

  it('a column a format reads itself is left to it, unless the person gives it a field', () => {
    const structural = new Map([[1, 'The shipping package’s size']])
    expect(matchColumns(['Name', 'Width (cm)'], { structural })[1]).toMatchObject({
      path: null,
      structural: true,
    })
    expect(
      matchColumns(['Name', 'Width (cm)'], { structural, saved: { 'Width (cm)': null } })[1],
    ).toMatchObject({
      structural: true,
    })
    expect(
      matchColumns(['Name', 'Width (cm)'], {
        structural,
        saved: { 'Width (cm)': 'meta.dimensions.width' },
      })[1],
    ).toMatchObject({ path: 'meta.dimensions.width', by: 'saved' })
  })
})
