import { describe, expect, it } from 'vitest'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { errorReportCsv, formatCellProblem } from '#shared/sheet/report.ts'
import { convertSheet, documentToResults } from '#shared/sheet/rows.ts'
import { fixture } from '../shared/contract-fixtures.ts'

describe('the error report', () => {
  it('is a CSV of line, column, value and message that reads back, at the lines a spreadsheet shows', () => {
    const results = convertSheet(
      parseCsvText('Product name,Intensity,Active\nAviator,high,yes\n"Kids, Round",1,perhaps\n'),
    )
    const problems = results.flatMap((result) => result.errors)
    const csv = errorReportCsv(problems)
    expect(csv.startsWith('\uFEFFline,column,value,message\r\n')).toBe(true)
    // The header is line 1: the first data row is line 2, as Excel and LibreOffice number it.
    expect(parseCsvText(csv).rows).toEqual([
      ['2', 'Intensity', 'high', 'Intensity must be a number, not the text "high"'],
      ['3', 'Active', 'perhaps', 'Active must be yes or no (true/false, Y/N, 1/0), not the text "perhaps"'],
    ])
    expect(problems.map(formatCellProblem)).toEqual([
      'line 2, column "Intensity": Intensity must be a number, not the text "high"',
      'line 3, column "Active": Active must be yes or no (true/false, Y/N, 1/0), not the text "perhaps"',
    ])
  })

  it("counts the template's help row, and a cell with line breaks as one line, as a spreadsheet does", () => {
    const results = convertSheet(
      parseCsvText(
        'Product name,Intensity\n' +
          '# help: the importer reads these columns. (This row is help: the importer skips it.),\n' +
          '"Aviator\nwith a note\non three lines",1\n' +
          'Round,high\n',
      ),
    )
    const problems = results.flatMap((result) => result.errors)
    // Spreadsheet lines: header 1, help row 2, Aviator 3 (its cell spans three lines of text), Round 4.
    expect(parseCsvText(errorReportCsv(problems)).rows).toEqual([
      ['4', 'Intensity', 'high', 'Intensity must be a number, not the text "high"'],
    ])
  })

  it('names an item of a JSON file or a feed, and the file and line of a PrestaShop pair', () => {
    const problem = { row: 3, column: 'brand', value: '', message: 'Brand is missing' }
    expect(parseCsvText(errorReportCsv([problem], 'items')).headers).toEqual([
      'item',
      'column',
      'value',
      'message',
    ])
    expect(parseCsvText(errorReportCsv([problem], 'items')).rows[0]![0]).toBe('3')
    const pair = {
      pair: {
        products: { name: 'products_import.csv', rows: 2 },
        combinations: { name: 'combinations_import.csv' },
      },
    }
    const paired = parseCsvText(errorReportCsv([{ ...problem, row: 1 }, problem], pair))
    expect(paired.headers).toEqual(['file', 'line', 'column', 'value', 'message'])
    expect(paired.rows.map((row) => row.slice(0, 2))).toEqual([
      ['products_import.csv', '2'],
      ['combinations_import.csv', '2'],
    ])
  })

  it('escapes values that look like formulas', () => {
    expect(errorReportCsv([{ row: 1, column: 'Brand', value: '=cmd', message: 'm' }])).toContain(
      "2,Brand,'=cmd,m",
    )
  })
})

describe('documentToResults: JSON in the same terms as a sheet', () => {
  it('row = item position + 1, column = the dotted path, value = what is there', () => {
    const { kind, results, documentErrors } = documentToResults(fixture('invalid/sku-list-mixed.json'))
    expect(kind).toBe('sku-list')
    expect(documentErrors).toEqual([])
    expect(results.map((result) => result.row)).toEqual([1, 2])
    expect(results[1]!.errors[0]).toEqual({
      row: 2,
      column: 'arEffect.envSettings.intensity',
      value: 'high',
      message: 'Intensity must be a number, not the text "high"',
    })
    expect(results[1]!.warnings[0]).toEqual({
      row: 2,
      column: 'brand',
      value: '',
      message: 'Brand is missing',
    })
  })

  it('problems with the document itself have row 0', () => {
    expect(documentToResults(fixture('invalid/bulk-skus-not-list.json')).documentErrors).toEqual([
      expect.objectContaining({
        row: 0,
        column: 'skus',
        message: 'The bulk request’s "skus" must be a list of SKUs',
      }),
    ])
  })
})
