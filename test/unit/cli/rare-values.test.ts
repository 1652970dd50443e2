import { describe, expect, it } from 'vitest'
import { runCli } from './run-cli.ts'

/**
 * Issue #38: "Eyewaer" on 5 rows and "sunglases" on 3, beside 60 "eyewear" and 62 "sunglasses",
 * passed `validate` without a word. They are asked about, with their lines, and stay a question:
 * every SKU is valid and sendable, so the exit status is still 0.
 */
const SHEET = 'test/fixtures/sheets/rare-values.csv'

describe('catalog-desk validate asks about rare values', () => {
  it('says “did you mean” with the lines, after the verdict, and exits 0', async () => {
    const run = await runCli(['validate', SHEET])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout.trimEnd().split('\n').slice(-4)).toEqual([
      '65 SKUs valid; 65 sendable; 0 held back',
      'values that look like typos of a common one (a question, not a problem: nothing is changed):',
      '  Category “Eyewaer” on 5 rows (lines 7, 19, 33, 48, 61): did you mean “eyewear” (60 rows)?',
      '  Sub-category “sunglases” on 3 rows (lines 12, 30, 53): did you mean “sunglasses” (62 rows)?',
    ])
  })

  it('--json lists them under rareValues, with rows and lines, and counts no error or warning for them', async () => {
    const run = await runCli(['validate', SHEET, '--json'])
    expect(run.code).toBe(0)
    const summary = JSON.parse(run.stdout)
    expect(summary).toMatchObject({ items: 65, valid: 65, invalid: 0, sendable: 65, heldBack: 0 })
    expect(summary.errors).toEqual([])
    expect(JSON.stringify(summary.warnings)).not.toMatch(/Eyewaer|sunglases/)
    expect(summary.rareValues).toEqual([
      {
        field: 'category',
        value: 'Eyewaer',
        count: 5,
        suggestion: 'eyewear',
        suggestionCount: 60,
        rows: [6, 18, 32, 47, 60],
        lines: [7, 19, 33, 48, 61],
        message: 'Category “Eyewaer” on 5 rows (lines 7, 19, 33, 48, 61): did you mean “eyewear” (60 rows)?',
      },
      {
        field: 'subCategory',
        value: 'sunglases',
        count: 3,
        suggestion: 'sunglasses',
        suggestionCount: 62,
        rows: [11, 29, 52],
        lines: [12, 30, 53],
        message:
          'Sub-category “sunglases” on 3 rows (lines 12, 30, 53): did you mean “sunglasses” (62 rows)?',
      },
    ])
  })

  it('a file without such values says nothing of them', async () => {
    const run = await runCli(['validate', 'test/fixtures/bulk-upload-request.json'])
    expect(run.stdout).not.toContain('typos')
  })
})
