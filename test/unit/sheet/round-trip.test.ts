import { describe, expect, it } from 'vitest'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { DRAFT_COLUMN, PROBLEMS_COLUMN, syncStateColumn } from '#shared/sheet/app-columns.ts'
import {
  bulkRequestJson,
  skusToCsv,
  skusToSheet,
  skusToXlsx,
  type SheetOptions,
} from '#shared/sheet/export.ts'
import { convertSheet } from '#shared/sheet/rows.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { fixture } from '../shared/contract-fixtures.ts'

const FIXTURES = [
  ...(fixture('bulk-upload-request.json').skus as Sku[]),
  fixture('sku-eyewear-full.json') as Sku,
  fixture('sku-partial-meta.json') as Sku,
]

/** The app's export: titles, then its own columns (the draft, a sync state, the problems). */
const asTheAppExports = (skus: readonly Sku[]): SheetOptions => ({
  headers: 'titles',
  extra: {
    headers: [DRAFT_COLUMN, syncStateColumn('Sandbox'), PROBLEMS_COLUMN],
    rows: skus.map((_, i) => [`draft-${i}`, 'Synced', 'Brand: “Brand” is missing']),
  },
})

const SEVEN_EMPTY = Array.from({ length: 7 }, () => null)

/** The two ways a sheet of drafts reads back exactly: the app's export, and contract paths (the CLI's). */
const EXPORTS: [string, (skus: readonly Sku[]) => SheetOptions][] = [
  ['the app’s export (titles and its own columns)', asTheAppExports],
  ['contract paths', () => ({ headers: 'paths' })],
]

describe('drafts → sheet → drafts', () => {
  it('the sheet is headed by contract paths, 3D assets spread over the positions used', () => {
    const { headers, rows } = skusToSheet(FIXTURES, { headers: 'paths' })
    expect(headers).toContain('arEffect.effectAssets3D.1.url')
    expect(headers).not.toContain('arEffect.effectAssets3D.2.url')
    expect(rows).toHaveLength(FIXTURES.length)
    // An empty 2D slot is an empty cell, as a person writes one, not the JSON `null`.
    expect(rows[0]![headers.indexOf('arEffect.effectAssets2D.0')]).toBe('')
  })

  it('by default headed by titles people know, and the app’s columns follow the fields', () => {
    const { headers, rows } = skusToSheet(FIXTURES, asTheAppExports(FIXTURES))
    expect(headers.slice(0, 3)).toEqual(['Organization ID', 'Category', 'Sub-category'])
    expect(headers).toContain('Position X')
    expect(headers).toContain('Model address of 3D asset 2')
    expect(headers.slice(-3)).toEqual([DRAFT_COLUMN, 'Catalog Desk sync: Sandbox', PROBLEMS_COLUMN])
    expect(rows[1]!.slice(-3)).toEqual(['draft-1', 'Synced', 'Brand: “Brand” is missing'])
    expect(skusToSheet(FIXTURES).headers).toEqual(headers.slice(0, -3))
    // Read back, each row names its draft; a person's sheet names none.
    const results = convertSheet(parseCsvText(skusToCsv(FIXTURES, asTheAppExports(FIXTURES))))
    expect(results.map((result) => result.draft)).toEqual(FIXTURES.map((_, i) => `draft-${i}`))
    expect(convertSheet(parseCsvText(skusToCsv(FIXTURES))).map((result) => result.draft)).toEqual(
      FIXTURES.map(() => undefined),
    )
  })

  it('headed by a mapping file’s headers where it names the field, titles elsewhere', () => {
    const names = { barcode: 'EAN', productName: 'Name', 'meta.frameWidth': 'Frame Width (cm)' }
    const { headers } = skusToSheet(FIXTURES, { headers: { names } })
    expect(headers).toContain('EAN')
    expect(headers).toContain('Frame Width (cm)')
    expect(headers).toContain('Brand')
    expect(headers).not.toContain('Barcode')
  })

  it('via CSV: every fixture comes back deep-equal, valid', () => {
    const results = convertSheet(parseCsvText(skusToCsv(FIXTURES)))
    expect(results.map((result) => result.sku)).toEqual(FIXTURES)
    expect(results.flatMap((result) => [...result.errors, ...result.warnings])).toEqual([])
    expect(results.map((result) => result.row)).toEqual([1, 2, 3, 4])
  })

  it.each(EXPORTS)(
    '%s: values written other than the suggested way come back as they went out, never respelled, split or converted',
    async (_, options) => {
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
        parseCsvText(skusToCsv([sku, other], options([sku, other]))),
        await readXlsx(await skusToXlsx([sku, other], options([sku, other]))),
      ]) {
        const results = convertSheet(sheet)
        expect(results.map((result) => result.sku)).toEqual([sku, other])
        expect(results.flatMap((result) => result.conversions ?? [])).toEqual([])
      }
    },
  )

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

  it.each(EXPORTS)(
    '%s: a text field the contract does not name is written as text, quoted only where it would read otherwise',
    async (_, options) => {
      const notes = ['runs small', '12', 'true', '', 'null', '[draft]', ' spaced ', '"quoted"']
      const skus = notes.map((fitNote, i) => ({
        ...FIXTURES[1]!,
        barcode: `00${i}`,
        meta: { ...(FIXTURES[1]!.meta as object), fitNote },
      })) as Sku[]
      const sheet = skusToSheet(skus, options(skus))
      const column = sheet.headers.indexOf('json:meta.fitNote')
      expect(sheet.rows.map((row) => row[column])).toEqual([
        'runs small',
        '"12"',
        '"true"',
        '""',
        '"null"',
        '"[draft]"',
        ' spaced ',
        '"\\"quoted\\""',
      ])
      for (const read of [
        parseCsvText(skusToCsv(skus, options(skus))),
        await readXlsx(await skusToXlsx(skus, options(skus))),
      ]) {
        expect(convertSheet(read).map((result) => result.sku)).toEqual(skus)
      }
    },
  )

  it.each(EXPORTS)(
    '%s: empty 2D slots are empty cells, read back as empty slots; an absent list beside them too',
    async (_, options) => {
      const lens = { url: 'https://cdn.example.com/lens.png' }
      const some = { ...FIXTURES[1]!, barcode: '1' } as Sku
      const slotted = structuredClone(some) as { arEffect: { effectAssets2D: unknown[] } }
      slotted.arEffect.effectAssets2D = [null, null, lens, null, null, null, null]
      const none = structuredClone(some) as { arEffect: { effectAssets2D?: unknown } }
      delete none.arEffect.effectAssets2D
      const skus = [some, slotted, { ...none, barcode: '3' }] as Sku[]
      const sheet = skusToSheet(skus, options(skus))
      const slots = sheet.headers.flatMap((_, i) =>
        sheet.paths[i]!.startsWith('arEffect.effectAssets2D.') ? [i] : [],
      )
      expect(sheet.rows.map((row) => slots.map((i) => row[i]))).toEqual([
        ['', '', '', '', '', '', ''],
        ['', '', JSON.stringify(lens), '', '', '', ''],
        ['', '', '', '', '', '', ''],
      ])
      const read = convertSheet(parseCsvText(skusToCsv(skus, options(skus)))).map((result) => result.sku)
      // One cell cannot tell an absent list from seven empty slots: beside other AR effect cells,
      // it is read as the seven empty slots every draft made in the app has.
      expect(read).toEqual([some, slotted, { ...none, barcode: '3', arEffect: some.arEffect }])
    },
  )

  it('a broken JSON object in a json: column is still an error, not text', () => {
    const [result] = convertSheet(parseCsvText('productName,json:meta.fitNote\nAviator,"{""a"": 1"\n'))
    expect(result!.errors.map((problem) => problem.column)).toEqual(['json:meta.fitNote'])
  })

  it.each(EXPORTS)(
    '%s: formula-like text comes back exactly, and negative numbers stay numbers',
    async (_, options) => {
      const sku = {
        orgId: '',
        actionUrl: '',
        productName: '=HYPERLINK("http://evil.example","click")',
        brand: '+cmd|/C calc!A0',
        barcode: '-2+3',
        version: '@SUM(1)',
        status: "'=already quoted",
        // With its seven 2D slots, as every draft made in the app has them (see below for one without).
        arEffect: { transform: { rotation: { x: -2.5, y: -0.018, z: 0 } }, effectAssets2D: SEVEN_EMPTY },
        meta: { lensWidth: '-5' },
      } as Sku
      const csv = skusToCsv([sku], options([sku]))
      expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`)
      expect(csv).toContain("'+cmd|/C calc!A0")
      expect(csv).not.toMatch(/,[=+@]/)
      const fromCsv = convertSheet(parseCsvText(csv))[0]!
      expect(fromCsv.sku).toEqual(sku)
      const fromXlsx = convertSheet(await readXlsx(await skusToXlsx([sku], options([sku]))))[0]!
      expect(fromXlsx.sku).toEqual(sku)
    },
  )

  it('the app’s export brings an invalid draft back as invalid as it went out: a “yes” in a yes/no field stays text', async () => {
    const sku = { ...FIXTURES[1]!, isActive: 'yes' } as unknown as Sku
    for (const sheet of [
      parseCsvText(skusToCsv([sku], asTheAppExports([sku]))),
      await readXlsx(await skusToXlsx([sku], asTheAppExports([sku]))),
    ]) {
      const [result] = convertSheet(sheet)
      expect(result!.sku).toEqual(sku)
      expect(result!.errors.map((problem) => problem.column)).toEqual(['Active'])
    }
    // Without the draft column the same sheet is a person's: "yes" is a yes.
    const theirs = convertSheet(parseCsvText(skusToCsv([sku])))[0]!
    expect(theirs.sku.isActive).toBe(true)
  })

  it('bulkRequestJson is the bulk request, drafts untouched', () => {
    expect(JSON.parse(bulkRequestJson(FIXTURES))).toEqual({ skus: FIXTURES })
  })
})
