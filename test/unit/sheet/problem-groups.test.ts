import { describe, expect, it } from 'vitest'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { groupKey, groupWords, problemKind, ProblemGrouper, ROWS_KEPT } from '#shared/sheet/problem-groups.ts'
import { convertSheet } from '#shared/sheet/rows.ts'
import type { CellProblem } from '#shared/sheet/types.ts'

/** The groups of a CSV's problems, as the dry run makes them. */
function groupsOf(csv: string) {
  const grouper = new ProblemGrouper()
  for (const result of convertSheet(parseCsvText(csv))) {
    grouper.add('error', result.errors)
    grouper.add('warning', result.warnings)
  }
  return grouper.list
}

const HEADER = 'Product name,Brand,Barcode,Category,Sub category,Product image,Intensity'
const line = (name: string, barcode: string, intensity: string) =>
  `${name},Acme,${barcode},eyewear,sunglasses,https://example.com/a.png,${intensity}`

describe('problem groups', () => {
  it('the same mistake with different cell values is one group, with its rows and the first message', () => {
    const groups = groupsOf(
      [
        HEADER,
        line('A', '5000000000001', 'high'),
        line('B', '5000000000002', '1'),
        line('C', '5000000000003', 'n/a'),
      ].join('\n'),
    )
    const intensity = groups.filter((group) => group.column === 'Intensity')
    expect(intensity).toEqual([
      {
        key: groupKey('error', {
          column: 'Intensity',
          message: 'Intensity must be a number, not the text "x"',
        }),
        severity: 'error',
        // Its rows' texts differ: it is said by its kind.
        varied: true,
        column: 'Intensity',
        message: 'Intensity must be a number, not the text "high"',
        // Its first row's cell, quoted beside the kind.
        example: 'high',
        count: 2,
        rows: [1, 3],
      },
    ])
    expect(problemKind(intensity[0]!.message)).toBe('Intensity must be a number, not the text "…"')
  })

  it('is said by its kind when its rows’ texts differ, and whole when every row says the same', () => {
    const differ = groupsOf(
      [HEADER, line('A', '5000000000001', 'high'), line('C', '5000000000003', 'n/a')].join('\n'),
    )
    expect(groupWords(differ.find((group) => group.column === 'Intensity')!)).toBe(
      'Intensity must be a number, not the text "…"',
    )
    // A Squarespace export's page slug, "shop" on every row: the value is what the person needs.
    const same = groupsOf(
      [HEADER, line('A', '5000000000001', 'high'), line('C', '5000000000003', 'high')].join('\n'),
    )
    expect(groupWords(same.find((group) => group.column === 'Intensity')!)).toBe(
      'Intensity must be a number, not the text "high"',
    )
  })

  it('wrong check digits are one group whatever the digits (PrestaShop’s sample has sixteen different ones)', () => {
    // Each barcode's last digit is wrong by another amount: 4006381333932 should end in 1, …
    const groups = groupsOf(
      [
        HEADER,
        line('A', '4006381333932', '1'),
        line('B', '7612345000436', '1'),
        line('C', '4006381333931', '1'),
      ].join('\n'),
    )
    const barcode = groups.filter((group) => group.column === 'Barcode')
    expect(barcode).toHaveLength(1)
    expect(barcode[0]).toMatchObject({ severity: 'warning', count: 2, rows: [1, 2] })
    expect(problemKind(barcode[0]!.message)).toBe('The check digit of this EAN-13 should be …, not …')
  })

  it('errors come before warnings, however many warnings; then the biggest groups, then the file order', () => {
    const rows = [HEADER]
    for (let i = 1; i <= 30; i++) {
      const image = i > 20 ? 'https://example.com/a.png' : ''
      // Shop codes, not GTINs: no check digit to warn of.
      rows.push(`Name ${i},,SKU-${5000000000000 + i},eyewear,sunglasses,${image},${i === 7 ? 'x' : '1'}`)
    }
    rows.push(',Acme,,eyewear,sunglasses,https://example.com/a.png,1')
    const groups = groupsOf(rows.join('\n'))
    expect(groups.map((group) => [group.severity, group.column, group.message, group.count])).toEqual([
      ['error', 'Intensity', 'Intensity must be a number, not the text "x"', 1],
      ['warning', 'Brand', 'Brand is missing', 30],
      ['warning', 'Product image', 'Product image is missing', 20],
      ['warning', 'Product name', 'Product name is missing', 1],
      ['warning', 'Barcode', 'Barcode is missing', 1],
    ])
    expect(groups[0]!.rows).toEqual([7])
    expect(groups.at(-1)!.rows).toEqual([31])
  })

  it('counts every problem but keeps the first ROWS_KEPT rows', () => {
    const grouper = new ProblemGrouper()
    const many = ROWS_KEPT + 500
    const problems: CellProblem[] = Array.from({ length: many }, (_, i) => ({
      row: i + 1,
      column: 'Intensity',
      value: `v${i}`,
      message: `Intensity must be a number, not the text "v${i}"`,
    }))
    // Added a stretch at a time, as the worker does.
    grouper.add('error', problems.slice(0, 700))
    grouper.add('error', problems.slice(700))
    const [group] = grouper.list
    expect(grouper.list).toHaveLength(1)
    expect(group!.count).toBe(many)
    expect(group!.rows).toHaveLength(ROWS_KEPT)
    expect(group!.rows.at(0)).toBe(1)
    expect(group!.rows.at(-1)).toBe(ROWS_KEPT)
  })

  it('a problem of the whole row (no column) is its own group, apart from the same words in a column', () => {
    const grouper = new ProblemGrouper()
    grouper.add('warning', [
      { row: 1, column: '', value: '', message: 'Sub-category is missing' },
      { row: 2, column: '', value: '', message: 'Sub-category is missing' },
      { row: 3, column: 'Sub category', value: '', message: 'Sub-category is missing' },
    ])
    expect(grouper.list.map(({ column, count, rows }) => ({ column, count, rows }))).toEqual([
      { column: '', count: 2, rows: [1, 2] },
      { column: 'Sub category', count: 1, rows: [3] },
    ])
  })

  it('the same words are an error and a warning apart', () => {
    const grouper = new ProblemGrouper()
    const problem = { row: 1, column: 'Barcode', value: '', message: 'Barcode is missing' }
    grouper.add('warning', [problem])
    grouper.add('error', [{ ...problem, row: 2 }])
    expect(grouper.list.map((group) => [group.severity, group.rows])).toEqual([
      ['error', [2]],
      ['warning', [1]],
    ])
  })
})
