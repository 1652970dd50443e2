import { describe, expect, it } from 'vitest'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { errorReportCsv, formatCellProblem } from '#shared/sheet/report.ts'
import { convertSheet, documentToResults } from '#shared/sheet/rows.ts'
import { fixture } from '../shared/contract-fixtures.ts'

describe('the error report', () => {
  it('is a CSV of row, column, value and message that reads back', () => {
    const results = convertSheet(
      parseCsvText('Product name,Intensity,Active\nAviator,high,yes\n"Kids, Round",1,perhaps\n'),
    )
    const problems = results.flatMap((result) => result.errors)
    const csv = errorReportCsv(problems)
    expect(csv.startsWith('\uFEFFrow,column,value,message\r\n')).toBe(true)
    expect(parseCsvText(csv).rows).toEqual([
      ['1', 'Intensity', 'high', 'Intensity must be a number, not the text "high"'],
      ['2', 'Active', 'perhaps', 'Active must be yes or no (true/false, Y/N, 1/0), not the text "perhaps"'],
    ])
    expect(problems.map(formatCellProblem)).toEqual([
      'row 1, column "Intensity": Intensity must be a number, not the text "high"',
      'row 2, column "Active": Active must be yes or no (true/false, Y/N, 1/0), not the text "perhaps"',
    ])
  })

  it('escapes values that look like formulas', () => {
    expect(errorReportCsv([{ row: 1, column: 'Brand', value: '=cmd', message: 'm' }])).toContain(
      "1,Brand,'=cmd,m",
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
