import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { automaticMapping } from '#shared/sheet/mapping.ts'
import { productLayout } from '#shared/sheet/products.ts'
import { readSheet } from '#shared/sheet/rows.ts'
import { fileVerdict } from '#shared/sync/file-verdict.ts'
import { validateSku } from '#shared/validation/validate.ts'
import { gtinFinding } from '#shared/values/gtin.ts'
import full from '../../fixtures/sku-eyewear-full.json'

// Barcodes read as GTINs: the GS1 check digit of EAN-8, UPC-A, EAN-13 and GTIN-14, a letter
// typed for a digit, and what is no GTIN at all. Real barcodes come from the public exports in
// test/fixtures/sheets/exports/real (SOURCES.md says where each file comes from).

const REAL = join(import.meta.dirname, '../../fixtures/sheets/exports/real')

/** The `<g:gtin>` values of Google's own example product feed. */
function merchantFeedGtins(): string[] {
  const feed = readFileSync(join(REAL, 'google-merchant-example-feed.rss.xml'), 'utf8')
  return [...feed.matchAll(/<g:gtin>([^<]*)<\/g:gtin>/g)].map((match) => match[1]!)
}

/** A real sheet through the import's own reading: decoding, CSV, column matching, conversion. */
function readReal(name: string) {
  const sheet = parseCsvText(decodeText(new Uint8Array(readFileSync(join(REAL, name)))))
  const mapping = automaticMapping(sheet.headers, { structural: productLayout(sheet.headers).structural })
  return readSheet(sheet, mapping)
}

describe('gtinFinding: the check digit of each GTIN form', () => {
  it('finds nothing wrong with right GTINs of every length, the real feed’s EAN-13s among them', () => {
    const feed = merchantFeedGtins()
    expect(feed).toEqual(['8808992787426', '5030697019233', '3348900839731', '5060155240282'])
    for (const gtin of [...feed, '96385074', '036000291452', '00012345600012', ' 4006381333931 '])
      expect(gtinFinding(gtin), gtin).toBeUndefined()
  })

  it('names the form and the digit expected, for EAN-8, UPC-A, EAN-13 and GTIN-14', () => {
    expect(gtinFinding('96385070')).toMatchObject({
      kind: 'check-digit',
      form: 'EAN-8',
      expected: 4,
      written: 0,
      message: 'The check digit of this EAN-8 should be 4, not 0',
    })
    // The UPC-A of the Magento feed (test/fixtures/sheets/exports/real/google-merchant-magento-atom-feed.xml).
    expect(gtinFinding('000123456789')).toMatchObject({
      kind: 'check-digit',
      form: 'UPC-A',
      expected: 4,
      message: 'The check digit of this UPC-A should be 4, not 9',
    })
    expect(gtinFinding('1234567890123')?.message).toBe('The check digit of this EAN-13 should be 8, not 3')
    expect(gtinFinding('00012345600013')).toMatchObject({
      kind: 'check-digit',
      form: 'GTIN-14',
      expected: 2,
      message: 'The check digit of this GTIN-14 should be 2, not 3',
    })
  })
})

describe('gtinFinding: a letter where a digit belongs', () => {
  it('says which character is the letter O, and judges the check digit as if it were 0', () => {
    // 8808992787426 from Google's feed, its 3rd digit typed as the letter O.
    expect(gtinFinding('88O8992787426')).toEqual({
      kind: 'letter',
      form: 'EAN-13',
      expected: 6,
      written: 6,
      letters: [{ position: 3, letter: 'O', digit: '0' }],
      message: 'In this EAN-13, the 3rd character is the letter O, not the digit 0',
    })
    // Its check digit wrong as well: both are said.
    expect(gtinFinding('88O8992787425')?.message).toBe(
      'In this EAN-13, the 3rd character is the letter O, not the digit 0; read as 0, its check digit should be 6, not 5',
    )
  })

  it('reads l and I as 1, S as 5 and B as 8, in any place, the check digit’s own included', () => {
    expect(gtinFinding('03600029l452')?.message).toBe(
      'In this UPC-A, the 9th character is the letter l, not the digit 1',
    )
    expect(gtinFinding('B808992787426')?.letters).toEqual([{ position: 1, letter: 'B', digit: '8' }])
    expect(gtinFinding('50601S5240282')?.message).toBe(
      'In this EAN-13, the 6th character is the letter S, not the digit 5',
    )
    expect(gtinFinding('9638507I')).toMatchObject({
      kind: 'letter',
      form: 'EAN-8',
      expected: 4,
      written: 1,
      message:
        'In this EAN-8, the 8th character is the letter I, not the digit 1; read as 1, its check digit should be 4, not 1',
    })
  })
})

describe('gtinFinding: what is no GTIN', () => {
  it('says nothing of shop codes, other lengths, or text with other letters or signs', () => {
    // The real exports' own codes: PrestaShop references, WooCommerce SKUs.
    for (const code of [
      'RP-demo_1',
      'woo-hoodie',
      'SKU00001',
      '1234567',
      '123456789',
      '12345678901',
      '123456789012345',
      '4006-381333931',
      '4006381 333931',
      'BOSS1234',
      '4OO6381333O31',
      '',
    ])
      expect(gtinFinding(code), code).toBeUndefined()
  })
})

describe('validation: a GTIN finding is a warning on the barcode', () => {
  it('warns at the path barcode in the finding’s words, and the SKU stays valid', () => {
    const result = validateSku({ ...structuredClone(full), barcode: '1234567890123' })
    expect(result.errors).toEqual([])
    expect(result.warnings).toContainEqual({
      path: 'barcode',
      message: 'The check digit of this EAN-13 should be 8, not 3',
    })
    expect(validateSku({ ...structuredClone(full), barcode: '88O8992787426' }).warnings).toContainEqual({
      path: 'barcode',
      message: 'In this EAN-13, the 3rd character is the letter O, not the digit 0',
    })
    // A right GTIN, or a shop's own code, gives no warning.
    for (const barcode of ['8808992787426', 'RP-demo_1'])
      expect(
        validateSku({ ...structuredClone(full), barcode }).warnings.filter((w) => w.path === 'barcode'),
      ).toEqual([])
  })

  it('the 7 PrestaShop sample products share an EAN-13 whose check digit is wrong: each row is warned, in its column', () => {
    const { results } = readReal('prestashop-9.1-products-import.csv')
    expect(results).toHaveLength(7)
    for (const result of results) {
      expect(result.sku.barcode).toBe('1234567890123')
      expect(result.errors).toEqual([])
      expect(result.warnings).toContainEqual({
        row: result.row,
        column: 'EAN13',
        value: '1234567890123',
        message: 'The check digit of this EAN-13 should be 8, not 3',
      })
    }
  })
})

describe('the file verdict: a wrong check digit holds back only when asked', () => {
  it('sends the PrestaShop sample’s products by default, and holds each back with the profile’s choice', () => {
    const { results } = readReal('prestashop-9.1-products-import.csv')
    const items = results.map((result) => ({
      payload: result.sku,
      row: result.row,
      valid: result.errors.length === 0,
    }))
    // Their one shared barcode holds them back anyway; each alone shows the check digit's gate.
    const alone = items.map((item) => fileVerdict([item], { required: [], requiredBy: 'this file' }))
    expect(alone.every((verdict) => verdict.sendable === 1)).toBe(true)
    const strict = items.map((item) =>
      fileVerdict([item], { required: [], requiredBy: 'Production', holdBadCheckDigits: true }),
    )
    for (const verdict of strict) {
      expect(verdict.sendable).toBe(0)
      expect(verdict.holds.get(0)).toEqual({
        reason: 'check-digit',
        message: 'The check digit of this EAN-13 should be 8, not 3; Production holds such SKUs back',
      })
    }
    // Together, the gate for the check digit comes first: it is the SKU's own.
    const together = fileVerdict(items, { required: [], requiredBy: 'Production', holdBadCheckDigits: true })
    expect(new Set([...together.holds.values()].map((hold) => hold.reason))).toEqual(new Set(['check-digit']))
  })
})
