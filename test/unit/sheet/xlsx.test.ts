import { describe, expect, it } from 'vitest'
import writeXlsxFile from 'write-excel-file/universal'
import { readXlsx, sheetNames, writeXlsx } from '#shared/sheet/xlsx.ts'
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

  it('reads a row of help for each column above the header (Meta’s catalog template) as such, and says so', async () => {
    const bytes = await writeXlsx([
      ['# Required | A unique content ID for the item.', '# Required | A specific and relevant title.'],
      ['id', 'title'],
      ['DB_1', 'Aviator'],
    ])
    const sheet = await readXlsx(bytes)
    expect(sheet.headers).toEqual(['id', 'title'])
    expect(sheet.rows).toEqual([
      ['', ''],
      ['DB_1', 'Aviator'],
    ])
    expect(sheet.notes).toEqual([
      'Line 1 is help for each column (“# Required | …”, as Meta’s catalog template writes it), not the header: the header is read from the line after it.',
    ])
  })

  it('accepts an ArrayBuffer, a Uint8Array and a Blob', async () => {
    const bytes = await writeXlsx([['brand'], ['Northwind']])
    for (const input of [bytes, bytes.slice().buffer, new Blob([bytes])]) {
      expect((await readXlsx(input)).rows).toEqual([['Northwind']])
    }
  })
})

// A tryout's real workbook held its variants on a second sheet; only the first was read, and
// nothing said so (the help does: "the first sheet").
describe('a workbook of several sheets', () => {
  const sheets = async (named: Array<[name: string, rows: string[][]]>) => {
    const blob = await writeXlsxFile(
      named.map(([sheet, rows]) => ({ sheet, data: rows.map((cells) => cells.map((value) => ({ value }))) })),
    ).toBlob()
    return new Uint8Array(await blob.arrayBuffer())
  }

  it('reads the first and names the others in a note', async () => {
    const bytes = await sheets([
      [
        'Products',
        [
          ['productName', 'barcode'],
          ['Aviator', '4006381333931'],
        ],
      ],
      [
        'Variants',
        [
          ['barcode', 'colour'],
          ['4006381333931', 'Black'],
        ],
      ],
      ['R&D <notes>', [['anything']]],
    ])
    const sheet = await readXlsx(bytes)
    expect(sheet.rows).toEqual([['Aviator', '4006381333931']])
    expect(sheet.notes).toEqual([
      'The workbook has 3 sheets: the first, “Products”, is read; “Variants” and “R&D <notes>” are not. To import another, move it first, or save it alone as CSV.',
    ])
  })

  it('names five others at most, and says nothing of a workbook of one', async () => {
    const many = await sheets(
      Array.from({ length: 8 }, (_, i): [string, string[][]] => [`Month ${i + 1}`, [['productName'], ['A']]]),
    )
    expect((await readXlsx(many)).notes).toEqual([
      'The workbook has 8 sheets: the first, “Month 1”, is read; “Month 2”, “Month 3”, “Month 4”, “Month 5”, “Month 6” and 2 more are not. To import another, move it first, or save it alone as CSV.',
    ])
    expect((await readXlsx(await sheets([['Only', [['productName'], ['A']]]]))).notes).toEqual([])
  })
})

describe('sheetNames', () => {
  it('reads the sheets of the workbook part in order, its entities and references read', () => {
    const xml = (body: string) =>
      new TextEncoder().encode(`<?xml version="1.0"?><workbook><sheets>${body}</sheets></workbook>`)
    expect(
      sheetNames(
        xml(
          `<sheet name="A &amp; B" sheetId="1" r:id="rId1"/><x:sheet sheetId='2' name='&#x41;&#66;' r:id="rId2"/><sheet sheetId="3"/>`,
        ),
      ),
    ).toEqual(['A & B', 'AB'])
    expect(sheetNames(undefined)).toEqual([])
  })
})
