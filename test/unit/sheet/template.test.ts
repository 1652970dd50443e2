import { describe, expect, it } from 'vitest'
import { skuColumns } from '#shared/sheet/columns.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { HELP_MARKER } from '#shared/sheet/help-row.ts'
import { convertSheet, SheetConverter } from '#shared/sheet/rows.ts'
import { automaticMapping } from '#shared/sheet/mapping.ts'
import { templateCsv, templateSheet, templateXlsx } from '#shared/sheet/template.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'

describe('the import template', () => {
  it('has every contract column, a help row starting with the marker, and an example row', () => {
    const { headers, help, example } = templateSheet()
    expect(headers).toEqual(skuColumns())
    expect(help).toHaveLength(headers.length)
    expect(help[0]!.startsWith(HELP_MARKER)).toBe(true)
    expect(help[headers.indexOf('arEffect.envSettings.intensity')]).toBe(
      'Intensity. Brightness of the environment lighting. A number, with a dot for decimals (1.5). An empty cell leaves the field out.',
    )
    expect(help[headers.indexOf('category')]).toContain('Such as: eyewear, makeup, jewellery, accessories.')
    expect(help[headers.indexOf('isActive')]).toContain('true or false')
    expect(example[headers.indexOf('productName')]).toBe('Aviator Classic Gold 58')
  })

  it.each([
    ['CSV', async () => parseCsvText(templateCsv())],
    ['XLSX', async () => readXlsx(await templateXlsx())],
  ])(
    'the %s template reads back: help row skipped, the example row (row 2) valid without warnings',
    async (_, read) => {
      const sheet = await read()
      expect(sheet.headers).toEqual(skuColumns())
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
