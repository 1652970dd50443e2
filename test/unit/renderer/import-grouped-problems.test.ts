import { describe, expect, it } from 'vitest'
import { ProblemGrouper } from '#shared/sheet/problem-groups.ts'
import { problemsByGroup, reportOrder } from '#renderer/features/import/grouped-problems.ts'
import type { ReportedProblem } from '#renderer/features/import/import-protocol.ts'

const problem = (
  row: number,
  severity: ReportedProblem['severity'],
  column: string,
  message: string,
  value = '',
): ReportedProblem => ({ row, column, value, message, severity })

/** The dry run's report: its kept problems (errors, then holds, then warnings) and their groups. */
function report(problems: ReportedProblem[]) {
  const grouper = new ProblemGrouper()
  for (const one of problems) grouper.add(one.severity, [one])
  const kept = (['error', 'held', 'warning'] as const).flatMap((severity) =>
    problems.filter((p) => p.severity === severity),
  )
  return { problems: kept, groups: grouper.list }
}

// A small file: images not filled everywhere, two bad intensities, one row without barcode.
const file = report([
  problem(1, 'warning', 'Product image', 'Product image is not filled (optional)'),
  problem(2, 'warning', 'Product image', 'Product image is not filled (optional)'),
  problem(2, 'error', 'Intensity', 'Intensity must be a number, not the text "high"', 'high'),
  problem(3, 'warning', 'Product image', 'Product image is not filled (optional)'),
  problem(3, 'held', 'Barcode', 'No barcode'),
  problem(4, 'warning', 'Product image', 'Product image is not filled (optional)'),
  problem(4, 'error', 'Intensity', 'Intensity must be a number, not the text "n/a"', 'n/a'),
  problem(4, 'error', 'Active', 'Active must be yes or no (true/false, Y/N, 1/0), not the text "x"', 'x'),
])

describe('the import’s grouped problems', () => {
  it('shows errors first, then the rows held back from sending, then the warnings, each the biggest first', () => {
    expect(file.groups.map((group) => [group.severity, group.column])).toEqual([
      ['error', 'Intensity'],
      ['error', 'Active'],
      ['held', 'Barcode'],
      ['warning', 'Product image'],
    ])
  })

  it('finds each group’s kept problems whatever their cell values', () => {
    const byGroup = problemsByGroup(file.problems)
    const intensity = file.groups.find((group) => group.column === 'Intensity')!
    expect(byGroup.get(intensity.key)?.map((p) => [p.row, p.value])).toEqual([
      [2, 'high'],
      [4, 'n/a'],
    ])
    expect(file.groups.every((group) => byGroup.get(group.key)?.length === group.count)).toBe(true)
  })

  it('orders the error report as the screen: group after group, each in row order, nothing left out', () => {
    const stray = problem(1, 'warning', 'Colour', 'A problem no group holds')
    const lines = reportOrder([...file.problems, stray], file.groups)
    expect(lines.map((p) => `${p.row} ${p.column}`)).toEqual([
      '2 Intensity',
      '4 Intensity',
      '4 Active',
      '3 Barcode',
      '1 Product image',
      '2 Product image',
      '3 Product image',
      '4 Product image',
      '1 Colour',
    ])
  })
})
