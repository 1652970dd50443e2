import { describe, expect, it } from 'vitest'
import { DryRunTally } from '#renderer/features/import/dry-run.ts'
import { problemLine } from '#renderer/features/import/error-report.ts'
import { reportOrder } from '#renderer/features/import/grouped-problems.ts'
import type { DryRunGates } from '#renderer/features/import/import-protocol.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { convertSheet } from '#shared/sheet/rows.ts'
import { fileVerdict } from '#shared/sync/file-verdict.ts'
import { payloadFingerprint } from '#shared/payload-fingerprint.ts'

/**
 * The import's dry run judges a file's rows as the Sync page will judge their drafts: by the file's
 * verdict under the active profile's gates (here the Sandbox's, which requires Category), saying
 * "held back from sending" with the gate's reason, and "not filled (optional)" only for fields no
 * gate requires.
 */

const SANDBOX: DryRunGates = {
  required: ['category'],
  requiredBy: 'Sandbox',
  holdBadCheckDigits: false,
  barcodeColumn: 'Barcode',
}

/** The whole CSV through the dry run, as the worker adds it up. */
function dryRun(csv: string, gates = SANDBOX) {
  const results = convertSheet(parseCsvText(csv))
  const tally = new DryRunTally('cells', new Set(), gates)
  // Two stretches, as the worker hands them on: the verdict spans them.
  tally.add(results.slice(0, 2))
  tally.add(results.slice(2))
  return { results, report: tally.report([]) }
}

const HEADER = 'Product name,Barcode,Brand,Category,Sub-category,Product image,Intensity'
const IMAGE = 'https://images.example.com/a.png'

describe('the import’s dry run, by the send gates', () => {
  it('holds back a row without the Category its profile requires, in the gate’s words, not as a warning', () => {
    const { report } = dryRun(
      [
        HEADER,
        `Aviator,4006381333931,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
        `Round,4006381333948,Northwind,,sunglasses,${IMAGE},0.5`,
      ].join('\n'),
    )
    expect(report).toMatchObject({ rows: 2, valid: 2, invalid: 0, sendable: 1, heldBack: 1 })
    expect(report.heldReasons).toEqual([{ reason: 'required', n: 1 }])
    expect(report.judgedBy).toBe('Sandbox')
    const held = report.problems.filter((problem) => problem.severity === 'held')
    expect(held).toEqual([
      {
        row: 2,
        column: 'Category',
        value: '',
        message: 'Category is empty; Sandbox requires it',
        severity: 'held',
      },
    ])
    expect(problemLine(held[0]!)).toBe('Held back from sending: Category is empty; Sandbox requires it')
    // The validator's "Category is missing" is said by the hold, never as a plain warning.
    expect(report.problems.map((problem) => problem.message)).not.toContain('Category is missing')
    expect(report.groups.map((group) => [group.severity, group.message, group.count])).toContainEqual([
      'held',
      'Category is empty; Sandbox requires it',
      1,
    ])
    expect(report.heldCount).toBe(1)
    expect(report.preview.map((row) => row.held)).toEqual([
      undefined,
      'Category is empty; Sandbox requires it',
    ])
  })

  it('a row held back for two reasons says both, each in the column of the field it names', () => {
    // A Wix export has no barcode column, and two of its rows an empty collection (its category):
    // their "No barcode" was said in the collection's column, and their empty category not at all.
    const header = 'name,Category,Sub-category,Product image,Intensity'
    const { report } = dryRun(
      [header, `Aviator,eyewear,sunglasses,${IMAGE},0.5`, `Round,,sunglasses,${IMAGE},0.5`].join('\n'),
    )
    const held = report.problems.filter((problem) => problem.severity === 'held')
    expect(held.map((problem) => [problem.row, problem.column, problem.message])).toEqual([
      [1, '', 'No barcode'],
      [2, '', 'No barcode'],
      [2, 'Category', 'Category is empty; Sandbox requires it'],
    ])
    // Counted once a row, by its first reason, as the Sync page counts drafts.
    expect(report.heldReasons).toEqual([{ reason: 'identity', n: 2 }])
    expect([report.heldCount, report.heldProblems]).toEqual([2, 3])
  })

  it('counts as leaving fields not filled only the rows that do, not those with another warning', () => {
    // A status the platform is not known to take (a shop's own "Approved") is a warning, and fills every field.
    const { report } = dryRun(
      [
        'Product name,Barcode,Brand,Category,Sub-category,Product image,Status',
        `Aviator,4006381333931,Northwind,eyewear,sunglasses,${IMAGE},Approved`,
      ].join('\n'),
    )
    expect(report.warningCount).toBeGreaterThan(0)
    expect(report.sendableUnfilled).toBe(0)
  })

  it('keeps the names of the rows that would be new drafts: not those a draft’s barcode or id matches', () => {
    const results = convertSheet(
      parseCsvText(
        [
          HEADER,
          `Aviator,4006381333931,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
          `Round,,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
          `Round,,Northwind,eyewear,sunglasses,${IMAGE},high`,
          `Cat eye,7612345000299,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
        ].join('\n'),
      ),
    )
    // A draft holds Aviator's barcode: its row updates it, or is skipped, never added.
    const tally = new DryRunTally('cells', new Set(['4006381333931']), SANDBOX)
    tally.add(results)
    expect([...tally.namesOfNewRows('all')]).toEqual([
      ['Round', 2],
      ['Cat eye', 1],
    ])
    // The row with an error is imported only on request.
    expect([...tally.namesOfNewRows('valid')]).toEqual([
      ['Round', 1],
      ['Cat eye', 1],
    ])
  })

  it('says “not filled (optional)” for a field no gate requires, and counts those rows as ready to send', () => {
    const { report } = dryRun(
      [
        HEADER,
        `Aviator,4006381333931,,eyewear,,${IMAGE},0.5`,
        `Round,4006381333948,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
      ].join('\n'),
    )
    expect(report).toMatchObject({ sendable: 2, heldBack: 0, heldCount: 0, sendableUnfilled: 1 })
    const warnings = report.problems.filter((problem) => problem.severity === 'warning')
    expect(warnings.map((problem) => problem.message)).toEqual([
      'Sub-category is not filled (optional)',
      'Brand is not filled (optional)',
    ])
    expect(report.problems.some((problem) => problem.message.includes('missing'))).toBe(false)
    expect(report.preview.map((row) => row.warnings)).toEqual([2, 0])
  })

  it('a profile that requires the Brand holds its row back instead', () => {
    const { report } = dryRun([HEADER, `Aviator,4006381333931,,eyewear,sunglasses,${IMAGE},0.5`].join('\n'), {
      ...SANDBOX,
      required: ['category', 'brand'],
      requiredBy: 'Production',
    })
    expect(report).toMatchObject({ sendable: 0, heldBack: 1, warningCount: 0 })
    expect(report.problems.map((problem) => problem.message)).toEqual([
      'Brand is empty; Production requires it',
    ])
  })

  it('holds back the rows sharing a barcode, naming each other, and counts the file as the verdict the CLI gives does', () => {
    const csv = [
      HEADER,
      `Aviator,4006381333931,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
      `Aviator copy,4006381333931,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
      `Round,4006381333948,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
      `Oval,,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
      `Broken,4006381333955,Northwind,,sunglasses,${IMAGE},high`,
    ].join('\n')
    const { results, report } = dryRun(csv)
    const verdict = fileVerdict(
      results.map((result) => ({ payload: result.sku, row: result.row, valid: result.errors.length === 0 })),
      { required: ['category'], requiredBy: 'Sandbox' },
    )
    expect({ sendable: report.sendable, heldBack: report.heldBack, invalid: report.invalid }).toEqual({
      sendable: verdict.sendable,
      heldBack: verdict.heldBack,
      invalid: verdict.total - verdict.valid,
    })
    expect(report).toMatchObject({ rows: 5, sendable: 1, heldBack: 3, invalid: 1 })
    expect(report.heldReasons).toEqual([
      { reason: 'identity', n: 1 },
      { reason: 'duplicate', n: 2 },
    ])
    const held = report.problems.filter((problem) => problem.severity === 'held')
    expect(held.map((problem) => [problem.row, problem.column, problem.value, problem.message])).toEqual([
      [
        1,
        'Barcode',
        '4006381333931',
        'Barcode 4006381333931 is also on 1 other SKU to be sent (line 3): keep one',
      ],
      [
        2,
        'Barcode',
        '4006381333931',
        'Barcode 4006381333931 is also on 1 other SKU to be sent (line 2): keep one',
      ],
      [4, 'Barcode', '', 'No barcode'],
      // A row with errors is counted with the errors, but says the hold its draft’s editor will say.
      [5, 'Category', '', 'Category is empty; Sandbox requires it'],
    ])
    expect(report.heldCount).toBe(4)
    // The two rows sharing a barcode are one group, whose messages each name the other row.
    expect(
      report.groups.filter((group) => group.severity === 'held').map((group) => [group.kind, group.rows]),
    ).toEqual([
      ['Sharing a barcode with another SKU to be sent', [1, 2]],
      [undefined, [4]],
      [undefined, [5]],
    ])
  })

  it('names the rows read as the same SKU, and how many distinct SKUs the file holds', () => {
    const row = `Aviator,4006381333931,Northwind,eyewear,sunglasses,${IMAGE},0.5`
    const other = `Round,4006381333948,Northwind,eyewear,sunglasses,${IMAGE},0.5`
    const { report } = dryRun([HEADER, row, other, row, other, row].join('\n'))
    expect(report.distinct).toBe(2)
    expect(report.repeatedGroups).toBe(2)
    expect(report.repeated).toEqual([
      { key: '4006381333931', rows: [1, 3, 5] },
      { key: '4006381333948', rows: [2, 4] },
    ])
  })

  it('orders the screen and the report: errors, then the rows held back, then the warnings', () => {
    const { report } = dryRun(
      [
        HEADER,
        `Aviator,4006381333931,,eyewear,sunglasses,${IMAGE},0.5`,
        `Round,4006381333948,Northwind,,sunglasses,${IMAGE},high`,
        `Oval,4006381333962,Northwind,,sunglasses,${IMAGE},0.5`,
      ].join('\n'),
    )
    expect(report.groups.map((group) => group.severity)).toEqual(['error', 'held', 'warning'])
    expect(
      reportOrder(report.problems, report.groups).map((problem) => [problem.row, problemLine(problem)]),
    ).toEqual([
      [2, 'Intensity must be a number, not the text "high"'],
      [2, 'Held back from sending: Category is empty; Sandbox requires it'],
      [3, 'Held back from sending: Category is empty; Sandbox requires it'],
      [1, 'Warning: Brand is not filled (optional)'],
    ])
  })
})

describe('the dry run names a row where the person finds it (issue #37)', () => {
  const csv = [
    HEADER,
    `Aviator,4006381333931,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
    `Round,4006381333931,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
  ].join('\n')

  it("a sheet's rows by their line in the spreadsheet: a hold names the other row's line", () => {
    const { report } = dryRun(csv)
    expect(report.numbering).toBe('lines')
    expect(report.problems.filter((problem) => problem.severity === 'held').map((p) => p.message)).toEqual([
      'Barcode 4006381333931 is also on 1 other SKU to be sent (line 3): keep one',
      'Barcode 4006381333931 is also on 1 other SKU to be sent (line 2): keep one',
    ])
  })

  it("a JSON file's or a feed's by their item, PrestaShop's pair by the file and its line", () => {
    const held = (numbering: Parameters<DryRunTally['report']>[1]) => {
      const tally = new DryRunTally('cells', new Set(), SANDBOX)
      tally.add(convertSheet(parseCsvText(csv)))
      const report = tally.report([], numbering)
      expect(report.numbering).toEqual(numbering)
      return report.problems.filter((problem) => problem.severity === 'held').map((p) => p.message)
    }
    expect(held('items')[0]).toBe(
      'Barcode 4006381333931 is also on 1 other SKU to be sent (item 2): keep one',
    )
    const pair = {
      pair: {
        products: { name: 'products_import.csv', rows: 1 },
        combinations: { name: 'combinations_import.csv' },
      },
    }
    expect(held(pair)).toEqual([
      'Barcode 4006381333931 is also on 1 other SKU to be sent (combinations_import.csv line 2): keep one',
      'Barcode 4006381333931 is also on 1 other SKU to be sent (products_import.csv line 2): keep one',
    ])
  })
})

describe('a real shop export, judged as validate and push --dry-run judge it', () => {
  it('holds every SKU of the WooCommerce sample back for its missing barcode, as the CLI does', async () => {
    const { readFile } = await import('node:fs/promises')
    // WooCommerce's own sample (test/fixtures/sheets/exports/real/SOURCES.md): 25 rows, of which the
    // variable Hoodie (row 2) is the parent of rows 20 and 25, and 4 are no physical product
    // (skipped), so 20 SKUs; it has no barcode column (ID and SKU are the shop's own codes), so
    // none can be sent. test/unit/cli/verdict.test.ts
    // asserts the same figures for `validate` and `push --dry-run`.
    const csv = await readFile(
      new URL('../../fixtures/sheets/exports/real/woocommerce-sample-products.csv', import.meta.url),
      'utf8',
    )
    const results = convertSheet(parseCsvText(csv))
    const tally = new DryRunTally('cells', new Set(), SANDBOX)
    tally.add(results)
    const report = tally.report([])
    expect(report).toMatchObject({ sendable: 0, heldBack: 20 })
    expect(report.heldReasons).toEqual([{ reason: 'identity', n: 20 }])
  })
})

describe('the dry run’s fingerprints of rows that may update a draft', () => {
  it('fingerprints exactly too only the rows whose draft was created somewhere (issue #38)', () => {
    const results = convertSheet(
      parseCsvText(
        [
          HEADER,
          `Aviator,4006381333931,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
          `Round,4006381333948,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
          `Oval,4006381333955,Northwind,eyewear,sunglasses,${IMAGE},0.5`,
        ].join('\n'),
      ),
    )
    const held = new Set(['4006381333931', '4006381333948'])
    const synced = { ids: new Set<string>(), barcodes: new Set(['4006381333931']) }
    const tally = new DryRunTally('cells', held, SANDBOX, synced)
    tally.add(results)
    // The third row's barcode no draft holds: it could update nothing, so it is not fingerprinted.
    expect(tally.report([]).fingerprints).toEqual([
      {
        barcode: '4006381333931',
        fingerprint: payloadFingerprint(results[0]!.sku, 'cells'),
        exact: payloadFingerprint(results[0]!.sku),
        valid: true,
      },
      { barcode: '4006381333948', fingerprint: payloadFingerprint(results[1]!.sku, 'cells'), valid: true },
    ])
  })
})
