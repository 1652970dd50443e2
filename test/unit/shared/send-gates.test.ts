import { describe, expect, it } from 'vitest'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import {
  barcodeHolds,
  barcodeKey,
  DEFAULT_REQUIRED_FIELDS,
  HOLD_HEADINGS,
  holdForGaps,
  holdHeading,
  holdsForGaps,
  holdsOf,
  isEmptySku,
  skuGaps,
  TRIMMED_CHARACTERS,
  type SendCandidate,
} from '#shared/sync/send-gates.ts'
import { EMBEDDED_SANDBOX_DESTINATION, takesSamples } from '#shared/sync/destination.ts'
import { SAMPLE_ADDRESSES } from '#shared/sample-assets.ts'
import { convertSheet } from '#shared/sheet/rows.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { templateCsv } from '#shared/sheet/template.ts'
import { fixture } from './contract-fixtures.ts'

/** A payload's first reason to be held back: what the gates lead with. */
const holdOf = (...args: Parameters<typeof holdsOf>) => holdsOf(...args)[0]

describe('the gates before sending', () => {
  it('lets the contract’s own example SKUs through', () => {
    for (const name of ['sku-eyewear-full.json', 'sku-partial-meta.json']) {
      expect(skuGaps(fixture(name)).filter((gap) => gap !== 'arEffect.envSettings.environmentImage')).toEqual(
        expect.not.arrayContaining(['empty', 'productName', 'barcode', 'category']),
      )
      expect(holdOf(fixture(name), DEFAULT_REQUIRED_FIELDS)).toBeUndefined()
    }
  })

  it('holds back a new draft nobody filled in as empty, and a template with one typed field as not', () => {
    expect(isEmptySku(newSkuPayload())).toBe(true)
    expect(holdOf(newSkuPayload(), DEFAULT_REQUIRED_FIELDS)).toEqual({
      reason: 'empty',
      message: expect.stringContaining('Empty'),
    })
    // Only what the template fills, changed or not, and blanks: still nothing a person typed.
    expect(isEmptySku({ ...newSkuPayload(), productName: '   ', meta: { gender: '' } })).toBe(true)
    expect(isEmptySku({})).toBe(true)
    expect(isEmptySku({ ...newSkuPayload(), brand: 'Northwind' })).toBe(false)
    // A changed default is something typed.
    expect(isEmptySku({ ...newSkuPayload(), status: 'PUBLISHED' })).toBe(false)
  })

  it('names the identity fields that are missing; defaults and blanks never satisfy them', () => {
    const named = { ...newSkuPayload(), productName: 'Aviator', category: 'eyewear' }
    expect(holdOf(named, DEFAULT_REQUIRED_FIELDS)).toEqual({
      reason: 'identity',
      message: 'No barcode',
      fields: ['barcode'],
    })
    const coded = { ...newSkuPayload(), barcode: ' 0012 ', productName: '\t', category: 'eyewear' }
    expect(holdOf(coded, DEFAULT_REQUIRED_FIELDS)).toEqual({
      reason: 'identity',
      message: 'No product name',
      fields: ['productName'],
    })
    expect(holdOf({ brand: 'Northwind' }, [])?.message).toBe('No product name or barcode')
  })

  it('holds back what the profile requires, and only that', () => {
    const sku = { ...fixture('sku-partial-meta.json'), category: '' }
    // The fields it names: where a sheet's dry run says it (the column that fills them).
    expect(holdOf(sku, DEFAULT_REQUIRED_FIELDS, 'Sandbox')).toEqual({
      reason: 'required',
      message: 'Category is empty; Sandbox requires it',
      fields: ['category'],
    })
    // The CLI's push requires them itself (--require, the profile's or the default).
    expect(holdOf(sku, DEFAULT_REQUIRED_FIELDS)?.message).toBe('Category is empty; this push requires it')
    expect(holdOf(sku, [])).toBeUndefined()
    const bare = { productName: 'Aviator', barcode: '1', category: 'eyewear' }
    expect(holdOf(bare, ['productImage', 'arEffect.effectAssets3D'], 'Production')?.message).toBe(
      'Product image and 3D effect assets are empty; Production requires them',
    )
    // A list of empty slots is not a 3D model.
    expect(
      holdOf({ ...bare, arEffect: { effectAssets3D: [null] } }, ['arEffect.effectAssets3D'])?.reason,
    ).toBe('required')
  })

  it('gives every reason at once for the editor, in the order the first is chosen; an empty draft has one', () => {
    const sku = { productName: 'Aviator', barcode: '', category: '' }
    expect(holdsOf(sku, DEFAULT_REQUIRED_FIELDS, 'Sandbox')).toEqual([
      { reason: 'identity', message: 'No barcode', fields: ['barcode'] },
      { reason: 'required', message: 'Category is empty; Sandbox requires it', fields: ['category'] },
    ])
    expect(holdOf(sku, DEFAULT_REQUIRED_FIELDS, 'Sandbox')).toEqual(
      holdsOf(sku, DEFAULT_REQUIRED_FIELDS, 'Sandbox')[0],
    )
    expect(holdsForGaps(['empty', 'barcode', 'category'], DEFAULT_REQUIRED_FIELDS, 'Sandbox')).toEqual([
      { reason: 'empty', message: 'Empty: nothing is filled in beyond what a new draft starts with' },
    ])
    expect(
      holdsOf({ productName: 'Aviator', barcode: '1', category: 'eyewear' }, DEFAULT_REQUIRED_FIELDS),
    ).toEqual([])
  })

  it('holds back a barcode whose check digit is wrong only when asked, after the fields it requires', () => {
    // The PrestaShop sample's EAN-13 (test/fixtures/sheets/exports/real), whose check digit is wrong.
    const sku = { ...fixture('sku-eyewear-full.json'), barcode: '1234567890123' }
    expect(skuGaps(sku)).toContain('check-digit')
    expect(skuGaps({ ...sku, barcode: '8901234567890' })).not.toContain('check-digit')
    // Off by default: validation warns of it, and the SKU goes.
    expect(holdOf(sku, DEFAULT_REQUIRED_FIELDS, 'Sandbox')).toBeUndefined()
    expect(holdOf(sku, DEFAULT_REQUIRED_FIELDS, 'Sandbox', { holdBadCheckDigits: false })).toBeUndefined()
    // Asked, the payload's own words say which digit.
    expect(holdOf(sku, DEFAULT_REQUIRED_FIELDS, 'Sandbox', { holdBadCheckDigits: true })).toEqual({
      reason: 'check-digit',
      message: 'The check digit of this EAN-13 should be 8, not 3; Sandbox holds such SKUs back',
    })
    expect(
      holdOf({ ...sku, barcode: '88O8992787426' }, [], 'this push', { holdBadCheckDigits: true })?.message,
    ).toBe(
      'In this EAN-13, the 3rd character is the letter O, not the digit 0; this push holds such SKUs back',
    )
    // From the stored gaps alone (the app's pre-flight), in general words.
    expect(holdForGaps(['check-digit'], [], 'Production', { holdBadCheckDigits: true })).toEqual({
      reason: 'check-digit',
      message: 'The barcode’s check digit is wrong; Production holds such SKUs back',
    })
    // A missing required field is the more basic reason.
    expect(
      holdOf({ ...sku, category: '' }, DEFAULT_REQUIRED_FIELDS, 'Sandbox', { holdBadCheckDigits: true })
        ?.reason,
    ).toBe('required')
    expect(holdHeading('check-digit', 'Sandbox')).toBe('whose barcode’s check digit is wrong')
  })

  it('holds back every SKU of a send whose barcode another carries, and those created there', () => {
    const candidates: SendCandidate<number>[] = [
      { key: 1, barcode: barcodeKey('8901234567906'), label: 'row 1' },
      { key: 2, barcode: barcodeKey(' 8901234567906 '), label: 'row 2' },
      { key: 3, barcode: barcodeKey('0012'), label: 'row 3' },
      { key: 4, barcode: barcodeKey('12'), label: 'row 4' },
      { key: 5, barcode: barcodeKey('555'), label: 'row 5' },
      { key: 6, barcode: '', label: 'row 6' },
      { key: 7, barcode: '', label: 'row 7' },
    ]
    const holds = barcodeHolds(candidates, new Map([['555', { by: 'created on Sandbox by draft “Old”' }]]))
    expect([...holds.keys()].sort()).toEqual([1, 2, 5])
    expect(holds.get(1)).toEqual({
      reason: 'duplicate',
      message: 'Barcode 8901234567906 is also on 1 other SKU to be sent (row 2): keep one',
    })
    expect(holds.get(5)).toEqual({
      reason: 'created',
      message:
        'Barcode 555 was already created on Sandbox by draft “Old”: sending it would create a second copy',
    })
  })

  it('a file’s rows that repeat one SKU exactly are that SKU once: the first goes, the others are held as its repeats', () => {
    const row = (key: number, content: string, barcode = '8901234567906'): SendCandidate<number> => ({
      key,
      barcode,
      label: `line ${key}`,
      content,
    })
    const holds = barcodeHolds([row(2, 'a'), row(5, 'a'), row(9, 'a')], new Map())
    expect([...holds.keys()]).toEqual([5, 9])
    expect(holds.get(9)).toEqual({
      reason: 'repeat',
      message: 'The same SKU as line 2, which is sent: not sent twice',
    })
    // One row that differs: which is right is for a person to say, none goes.
    const differing = barcodeHolds([row(2, 'a'), row(5, 'a'), row(7, 'b')], new Map())
    expect([...differing.values()].map((hold) => hold.reason)).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
    ])
    // Drafts (no content): two drafts are two SKUs, however alike.
    const drafts = barcodeHolds(
      [
        { key: 1, barcode: '8901234567906', label: 'draft “A”' },
        { key: 2, barcode: '8901234567906', label: 'draft “A”' },
      ],
      new Map(),
    )
    expect([...drafts.values()].map((hold) => hold.reason)).toEqual(['duplicate', 'duplicate'])
    // A barcode created there holds them all.
    const created = barcodeHolds([row(2, 'a'), row(5, 'a')], new Map([['8901234567906', { by: 'someone' }]]))
    expect([...created.values()].map((hold) => hold.reason)).toEqual(['created', 'created'])
  })

  it('heads the reasons with the place where the app names it, and as the CLI says them otherwise', () => {
    expect(holdHeading('created', 'Sandbox')).toBe('with a barcode already created on Sandbox')
    expect(holdHeading('required', 'Production')).toBe('missing a field Production requires')
    expect(holdHeading('duplicate', 'Sandbox')).toBe(HOLD_HEADINGS.duplicate)
    expect(HOLD_HEADINGS.created).toBe('with a barcode already created there')
  })

  it('holds back a SKU still naming a sample address from every destination but the Sandbox, saying which', () => {
    const [fromTemplate] = convertSheet(parseCsvText(templateCsv())).map((result) => result.sku)
    expect(skuGaps(fromTemplate)).toEqual(['sample'])
    expect(holdOf(fromTemplate, DEFAULT_REQUIRED_FIELDS, 'Production')).toEqual({
      reason: 'sample',
      message:
        'Uses the sample model, the sample environment and the sample picture: replace them before sending to Production',
    })
    expect(takesSamples(EMBEDDED_SANDBOX_DESTINATION)).toBe(true)
    expect(takesSamples('https://api.pixelbin.io')).toBe(false)
    expect(holdOf(fromTemplate, DEFAULT_REQUIRED_FIELDS, 'Sandbox', { takesSamples: true })).toBeUndefined()

    // Only the model left: the words name it alone. Replaced, nothing holds it back.
    const sku = fixture('sku-eyewear-full.json') as { arEffect: { effectAssets3D: { url: string }[] } }
    const withModel = structuredClone(sku)
    withModel.arEffect.effectAssets3D[0]!.url = SAMPLE_ADDRESSES.model
    expect(holdOf(withModel, [], 'Production')?.message).toBe(
      'Uses the sample model: replace it before sending to Production',
    )
    expect(holdOf(withModel, [], 'this push')?.message).toBe(
      'Uses the sample model: replace it before sending anywhere but a sandbox',
    )
    expect(holdOf(sku, [], 'Production')).toBeUndefined()
    // From the stored gaps alone (the Sync page), which samples is not known.
    expect(holdForGaps(['sample'], [], 'Staging')?.message).toBe(
      'Uses the sample model or pictures: replace them before sending to Staging',
    )
    // A more basic reason comes first.
    expect(holdForGaps(['barcode', 'sample'], [], 'Staging')?.reason).toBe('identity')
  })
})

describe('TRIMMED_CHARACTERS', () => {
  it('lists, in code-unit order, exactly the characters trim removes', () => {
    const trimmed = Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code)).filter(
      (char) => char.trim() === '',
    )
    expect(TRIMMED_CHARACTERS).toEqual(trimmed)
  })
})
