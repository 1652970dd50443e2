import { describe, expect, it } from 'vitest'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { bulkRequestJson, skusToCsv, skusToSheet, skusToXlsx } from '#shared/sheet/export.ts'
import { convertSheet } from '#shared/sheet/rows.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { fixture } from '../shared/contract-fixtures.ts'

const FIXTURES = [
  ...(fixture('bulk-upload-request.json').skus as Sku[]),
  fixture('sku-eyewear-full.json') as Sku,
  fixture('sku-partial-meta.json') as Sku,
]

describe('drafts → sheet → drafts', () => {
  it('the sheet is headed by contract paths, 3D assets spread over the positions used', () => {
    const { headers, rows } = skusToSheet(FIXTURES)
    expect(headers).toContain('arEffect.effectAssets3D.1.url')
    expect(headers).not.toContain('arEffect.effectAssets3D.2.url')
    expect(rows).toHaveLength(FIXTURES.length)
    expect(rows[0]![headers.indexOf('arEffect.effectAssets2D.0')]).toBe('null')
  })

  it('via CSV: every fixture comes back deep-equal, valid', () => {
    const results = convertSheet(parseCsvText(skusToCsv(FIXTURES)))
    expect(results.map((result) => result.sku)).toEqual(FIXTURES)
    expect(results.flatMap((result) => [...result.errors, ...result.warnings])).toEqual([])
    expect(results.map((result) => result.row)).toEqual([1, 2, 3, 4])
  })

  it('values written other than the suggested way come back as they went out, never respelled, split or converted', async () => {
    const sku = {
      ...FIXTURES[1]!,
      category: 'Eyewear',
      status: 'draft',
      productImage: 'https://cdn.example.com/a.jpg, https://cdn.example.com/b.jpg',
      meta: {
        gender: 'Male',
        frameWidth: '52 mm',
        lensWidth: '52.0',
        dimensions: { unit: 'cm', width: '5.20', height: '1,5 in' },
      },
      arEffect: { ...(FIXTURES[1]!.arEffect as object), envSettings: { toneMapping: 'ACES' } },
    } as Sku
    const other = { ...FIXTURES[0]!, category: 'Hats, Caps', subCategory: undefined } as Sku
    delete other.subCategory
    for (const sheet of [
      parseCsvText(skusToCsv([sku, other])),
      await readXlsx(await skusToXlsx([sku, other])),
    ]) {
      const results = convertSheet(sheet)
      expect(results.map((result) => result.sku)).toEqual([sku, other])
      expect(results.flatMap((result) => result.conversions ?? [])).toEqual([])
    }
  })

  it('via XLSX: the same', async () => {
    const results = convertSheet(await readXlsx(await skusToXlsx(FIXTURES)))
    expect(results.map((result) => result.sku)).toEqual(FIXTURES)
    expect(results.flatMap((result) => result.errors)).toEqual([])
  })

  it('fields the contract does not name, and an empty 3D list, travel in json: columns', async () => {
    const sku = {
      ...FIXTURES[0]!,
      customField: { nested: [1, 'two'] },
      meta: { ...(FIXTURES[0]!.meta as object), fitNote: 'runs small' },
      arEffect: { ...(FIXTURES[0]!.arEffect as object), effectAssets3D: [] },
    } as Sku
    const sheet = skusToSheet([sku, FIXTURES[1]!])
    expect(sheet.headers.filter((header) => header.startsWith('json:'))).toEqual([
      'json:arEffect.effectAssets3D',
      'json:meta.fitNote',
      'json:customField',
    ])
    expect(convertSheet(parseCsvText(skusToCsv([sku, FIXTURES[1]!]))).map((r) => r.sku)).toEqual([
      sku,
      FIXTURES[1],
    ])
    expect(convertSheet(await readXlsx(await skusToXlsx([sku]))).map((r) => r.sku)).toEqual([sku])
  })

  it('formula-like text comes back exactly, and negative numbers stay numbers', async () => {
    const sku = {
      orgId: '',
      actionUrl: '',
      productName: '=HYPERLINK("http://evil.example","click")',
      brand: '+cmd|/C calc!A0',
      barcode: '-2+3',
      version: '@SUM(1)',
      status: "'=already quoted",
      arEffect: { transform: { rotation: { x: -2.5, y: -0.018, z: 0 } } },
      meta: { lensWidth: '-5' },
    } as Sku
    const csv = skusToCsv([sku])
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`)
    expect(csv).toContain("'+cmd|/C calc!A0")
    expect(csv).not.toMatch(/,[=+@]/)
    const fromCsv = convertSheet(parseCsvText(csv))[0]!
    expect(fromCsv.sku).toEqual(sku)
    const fromXlsx = convertSheet(await readXlsx(await skusToXlsx([sku])))[0]!
    expect(fromXlsx.sku).toEqual(sku)
  })

  it('bulkRequestJson is the bulk request, drafts untouched', () => {
    expect(JSON.parse(bulkRequestJson(FIXTURES))).toEqual({ skus: FIXTURES })
  })
})
