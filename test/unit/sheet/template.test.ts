import { describe, expect, it } from 'vitest'
import { describeColumn, matchColumns, skuColumns } from '#shared/sheet/columns.ts'
import { parseCsvText, toCsv } from '#shared/sheet/csv.ts'
import { skusToCsv } from '#shared/sheet/export.ts'
import { HELP_MARKER } from '#shared/sheet/help-row.ts'
import { convertSheet, SheetConverter } from '#shared/sheet/rows.ts'
import { automaticMapping, defaultSettings } from '#shared/sheet/mapping.ts'
import { templateCsv, templateSheet, templateXlsx } from '#shared/sheet/template.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import { SAMPLE_ADDRESSES } from '#shared/sample-assets.ts'

describe('the import template', () => {
  it('has every contract column headed by its title, a help row starting with the marker, and an example row', () => {
    const { headers, paths, help, example } = templateSheet()
    expect(paths).toEqual(skuColumns())
    expect(headers).toEqual(skuColumns().map(describeColumn))
    expect(headers).toContain('Intensity')
    expect(headers).toContain('Model address of 3D asset 1')
    expect(headers.filter((header) => header.includes('.'))).toEqual([])
    expect(help).toHaveLength(headers.length)
    expect(help[0]!.startsWith(HELP_MARKER)).toBe(true)
    expect(help[headers.indexOf('Intensity')]).toBe(
      'Intensity. Brightness of the environment lighting. A number, with a dot for decimals (1.5). An empty cell leaves the field out.',
    )
    expect(help[paths.indexOf('category')]).toContain('Such as: eyewear, makeup, jewellery, accessories.')
    expect(help[paths.indexOf('isActive')]).toContain('true or false')
    expect(example[headers.indexOf('Product name')]).toBe('Aviator Classic Gold 58')
  })

  it('names the app’s samples for its model, environment and picture, and writes empty 2D slots as empty cells', () => {
    const { paths, example } = templateSheet()
    const cell = (path: string) => example[paths.indexOf(path)]
    expect(cell('arEffect.effectAssets3D.0.url')).toBe(SAMPLE_ADDRESSES.model)
    expect(cell('arEffect.envSettings.environmentImage')).toBe(SAMPLE_ADDRESSES.environment)
    expect(cell('productImage')).toBe(SAMPLE_ADDRESSES.picture)
    expect(example.filter((text) => text.includes('cdn.example.com'))).toEqual([])
    expect(paths.filter((path) => path.startsWith('arEffect.effectAssets2D.')).map(cell)).toEqual(
      Array.from({ length: 7 }, () => ''),
    )
  })

  it('is a person’s sheet, not a Catalog Desk export: its rows get the new-SKU defaults', () => {
    const { headers } = templateSheet()
    expect(defaultSettings(matchColumns(headers)).fillDefaults).toBe(true)
  })

  it('headed by titles or by paths, and exported by paths, it reads back as the same drafts', async () => {
    const { headers, paths, help, example } = templateSheet()
    const byTitles = convertSheet(parseCsvText(templateCsv()))
    expect(byTitles.flatMap((result) => [...result.errors, ...result.warnings])).toEqual([])
    const drafts = byTitles.map((result) => result.sku)
    // The template as earlier versions wrote it, headed by contract paths.
    const byPaths = convertSheet(parseCsvText(toCsv(paths, [help, example])))
    expect(byPaths.map((result) => result.sku)).toEqual(drafts)
    // Those drafts exported by path (the CLI's convert) and by title (the app's), and read again.
    for (const headerStyle of ['paths', 'titles'] as const) {
      const exported = convertSheet(parseCsvText(skusToCsv(drafts, { headers: headerStyle })))
      expect(exported.map((result) => result.sku)).toEqual(drafts)
    }
    expect(headers).not.toEqual(paths)
  })

  it.each([
    ['CSV', async () => parseCsvText(templateCsv())],
    ['XLSX', async () => readXlsx(await templateXlsx())],
  ])(
    'the %s template reads back: help row skipped, the example row (row 2) valid without warnings',
    async (_, read) => {
      const sheet = await read()
      expect(sheet.headers).toEqual(skuColumns().map(describeColumn))
      const results = convertSheet(sheet)
      expect(results).toHaveLength(1)
      expect(results[0]).toMatchObject({ row: 2, errors: [], warnings: [] })
      expect(results[0]!.sku).toMatchObject({ productName: 'Aviator Classic Gold 58', isActive: true })
    },
  )

  it('the help row is recognised wherever its column was moved, and blank rows are skipped but counted', () => {
    const { headers, help, example } = templateSheet()
    const order = headers.map((_, i) => headers.length - 1 - i)
    const converter = new SheetConverter(
      order.map((i) => headers[i]!),
      automaticMapping(order.map((i) => headers[i]!)),
    )
    const results = converter.convert([
      order.map((i) => example[i]!),
      order.map((i) => help[i]!),
      order.map(() => ''),
      order.map((i) => example[i]!),
    ])
    expect(results.map((result) => result.row)).toEqual([1, 4])
  })

  it('a product whose note starts with "# help:" is a product, not the help row', () => {
    const sheet = parseCsvText(
      'barcode,productName,meta.lensColorDescription\n0012,Aviator,# help: see the chart\n0013,Round,grey\n',
    )
    expect(convertSheet(sheet).map((result) => result.sku.barcode)).toEqual(['0012', '0013'])
  })
})
