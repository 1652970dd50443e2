import { describe, expect, it } from 'vitest'
import { readXlsx, writeXlsx } from '#shared/sheet/xlsx.ts'
import { lineOf } from '#shared/sheet/places.ts'
import { convertSheet } from '#shared/sheet/rows.ts'

describe('XLSX', () => {
  it('writes and reads cells as text the user sees: numbers without float noise, booleans as TRUE/FALSE', async () => {
    const bytes = await writeXlsx(
      [
        ['productName', 'arEffect.envSettings.intensity', 'meta.lensWidth'],
        ['Aviator', String(0.1 + 0.2), '52'],
        ['', '-2.5', ''],
      ],
      { numberColumns: new Set([1]) },
    )
    expect(bytes).toBeInstanceOf(Uint8Array)
    const sheet = await readXlsx(new Blob([bytes]))
    expect(sheet.headers).toEqual(['productName', 'arEffect.envSettings.intensity', 'meta.lensWidth'])
    expect(sheet.rows).toEqual([
      ['Aviator', '0.3', '52'],
      ['', '-2.5', ''],
    ])
    const results = convertSheet(sheet)
    expect(results[0]!.sku).toEqual({
      productName: 'Aviator',
      arEffect: { envSettings: { intensity: 0.3 } },
      meta: { lensWidth: '52' },
    })
  })

  it('counts blank rows above the header as rows, as the CSV reader does, so each row keeps its line', async () => {
    // The header on the spreadsheet's row 3, Aviator on row 4: data row 3, as the line says.
    const bytes = await writeXlsx([
      ['', ''],
      ['', ''],
      ['productName', 'brand'],
      ['Aviator', 'Northwind'],
    ])
    const sheet = await readXlsx(bytes)
    expect(sheet.headers).toEqual(['productName', 'brand'])
    expect(sheet.rows).toEqual([
      ['', ''],
      ['', ''],
      ['Aviator', 'Northwind'],
    ])
    const results = convertSheet(sheet)
    const aviator = results.find((result) => result.sku?.productName === 'Aviator')
    expect(lineOf(aviator!.row)).toBe(4)
  })

  it('accepts an ArrayBuffer, a Uint8Array and a Blob', async () => {
    const bytes = await writeXlsx([['brand'], ['Northwind']])
    for (const input of [bytes, bytes.slice().buffer, new Blob([bytes])]) {
      expect((await readXlsx(input)).rows).toEqual([['Northwind']])
    }
  })
})
