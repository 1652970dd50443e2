import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { matchColumns, typoOf } from '#shared/sheet/columns.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { productLayout } from '#shared/sheet/products.ts'

/**
 * People's hands make typos: a header that matches nothing but is a near miss of a field's words
 * names that field as a suggestion, for the person to confirm. It is never filled by itself, and a
 * wrong suggestion is worse than none, so the real exports' headers must suggest nothing.
 */

const suggestions = (headers: string[]) =>
  matchColumns(headers).map(({ header, path, suggestion }) => [header, path, suggestion])

describe('a header with a typo', () => {
  it('the tryout’s sheet: each typo names its field, and none is filled until the person says so', () => {
    const matches = matchColumns(['Prodcut Name', 'Barcod', 'Brnad', 'Categroy', 'Intensty', 'Price'])
    expect(matches.map(({ path, by, suggestion }) => [path, by, suggestion])).toEqual([
      [null, 'none', 'productName'],
      [null, 'none', 'barcode'],
      [null, 'none', 'brand'],
      [null, 'none', 'category'],
      [null, 'none', 'arEffect.envSettings.intensity'],
      [null, 'none', undefined],
    ])
    expect(matches.map((match) => match.why)).toEqual([
      '“Prodcut Name” looks like Product name',
      '“Barcod” looks like Barcode',
      '“Brnad” looks like Brand',
      '“Categroy” looks like Category',
      '“Intensty” looks like Intensity',
      undefined,
    ])
  })

  it.each([
    ['Titel', 'productName'],
    ['Pruduct Name', 'productName'],
    ['Variant Barcod', 'barcode'],
    ['Barcode Nmuber', 'barcode'],
    ['Frame Widht (mm)', 'meta.frameWidth'],
    ['meta.frameWidht', 'meta.frameWidth'],
    ['Lens colour descriptoin', 'meta.lensColorDescription'],
    ['Model adress', 'arEffect.effectAssets3D.0.url'],
    ['Gendre', 'meta.gender'],
    ['Materials', 'meta.material'],
    ['Imags', 'productImage'],
    ['Hight', 'meta.dimensions.height'],
  ])('%j looks like %s', (header, path) => {
    expect(matchColumns([header])[0]).toMatchObject({ path: null, by: 'none', suggestion: path })
  })

  it('a field another column fills is not suggested; two typos of one field: the first is', () => {
    expect(suggestions(['Product name', 'Prodcut Name'])).toEqual([
      ['Product name', 'productName', undefined],
      ['Prodcut Name', null, undefined],
    ])
    expect(suggestions(['EAN', 'Barcod'])[1]).toEqual(['Barcod', null, undefined])
    expect(suggestions(['json:brand', 'Brnad'])[1]).toEqual(['Brnad', null, undefined])
    expect(suggestions(['Brnad', 'Barnd'])).toEqual([
      ['Brnad', null, 'brand'],
      ['Barnd', null, undefined],
    ])
  })

  it('a shop’s code stays one, and a near miss of one suggests nothing, least of all the barcode', () => {
    const matches = matchColumns(['SKU', 'Variant SKU', 'Refrence', 'Handel', 'Barcod'])
    expect(matches.map(({ path, identifier, suggestion }) => [path, identifier, suggestion])).toEqual([
      [null, true, undefined],
      [null, true, undefined],
      [null, undefined, undefined],
      [null, undefined, undefined],
      [null, undefined, 'barcode'],
    ])
  })

  it('the person’s saved choice, a column the format reads and a column left for another suggest nothing', () => {
    const saved = matchColumns(['Prodcut Name'], { saved: { 'Prodcut Name': null } })[0]!
    expect(saved.by).toBe('saved')
    expect(saved).not.toHaveProperty('suggestion')
    const read = matchColumns(['Name', 'Brnad'], { structural: new Map([[1, 'The vendor’s own']]) })[1]!
    expect(read.structural).toBe(true)
    expect(read).not.toHaveProperty('suggestion')
    const left = matchColumns(['name', 'Title'])[1]!
    expect(left.couldFill).toBe('productName')
    expect(left).not.toHaveProperty('suggestion')
  })

  it.each([
    // Plurals and near words of short words are other words: "Share" is no "Shape".
    'Size',
    'Sizes',
    'Tile',
    'Tiles',
    'Tile Z',
    'Titles X',
    'Brands',
    'Share',
    'Shade',
    'Bland',
    'Labels',
    'Stats',
    'Line',
    'Nome',
    // A different first letter, or a negation: another word, not a typo.
    'Weight',
    'Lens weight',
    'Inactive',
    'Is inactive',
    'Unpublished',
    'Disabled',
    // Real words one typo from a field's word.
    'Publisher',
    'Produce',
    'Manufactured',
    'Maternal',
    // Near several fields at once, or a position that is not there.
    'Position',
    'Rotation',
    '2D asset 8',
    'Model address of 3D asset 21',
    // Too far: two typos in one word.
    'Catgeroy',
    'Prodct nme',
    // Headers of real sheets and feeds around the app's fields.
    'Colour',
    'Lens tint',
    'Frame finish',
    'Face shape',
    'Collection',
    'Weight (g)',
    'shipping_weight',
    'product_highlight',
    'pattern',
    'Status code',
    'Intensities',
  ])('%j suggests nothing', (header) => {
    expect(matchColumns([header])[0]?.suggestion).toBeUndefined()
  })
})

describe('no suggestion on the real exports', () => {
  const dir = join(import.meta.dirname, '../../fixtures/sheets/exports')
  const files = readdirSync(dir).filter((name) => /\.(csv|tsv)$/.test(name))

  it.each(files)('%s: its unmatched headers suggest nothing', (name) => {
    const sheet = parseCsvText(decodeText(new Uint8Array(readFileSync(join(dir, name)))))
    const matches = matchColumns(sheet.headers, { structural: productLayout(sheet.headers).structural })
    // The fixtures do have headers that match nothing: those are the ones checked.
    expect(matches.some((match) => match.path === null && !match.structural)).toBe(true)
    expect(matches.filter((match) => match.suggestion !== undefined).map((match) => match.header)).toEqual([])
  })
})

describe('typoOf', () => {
  it.each([
    ['prodcut', 'product', 'swapped'],
    ['barcod', 'barcode', 'dropped'],
    ['brandd', 'brand', 'added'],
    ['intensoty', 'intensity', 'changed'],
    ['brnad', 'brand', 'swapped'],
    ['product', 'product', undefined],
    ['catgeroy', 'category', undefined],
    ['prodct', 'productt', undefined],
    ['bran', 'brands', undefined],
  ] as const)('%s for %s: %s', (written, word, typo) => {
    expect(typoOf(written, word)).toBe(typo)
  })
})
