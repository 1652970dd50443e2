import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SheetSummary } from '#cli/sheet-report.ts'
import writeXlsxFile from 'write-excel-file/universal'
import { writeXlsx } from '#shared/sheet/xlsx.ts'
import { templateCsv } from '#shared/sheet/template.ts'
import { SAMPLE_ORIGIN } from '#shared/sample-assets.ts'
import { runCli } from './run-cli.ts'

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-validate-sheet-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

async function scratchFile(name: string, content: string | Uint8Array): Promise<string> {
  const file = join(scratch, name)
  await writeFile(file, content)
  return file
}

const lines = (text: string) => text.trimEnd().split('\n')

const ROWS = [
  ['Product name', 'Brand', 'Intensity', 'Active', 'Notes'],
  ['Aviator', 'Northwind', '1.2', 'yes', 'fine'],
  ['Kids Round', 'Northwind', 'high', 'perhaps', ''],
]
const CSV = ROWS.map((row) => row.join(';')).join('\r\n') + '\r\n'

describe('catalog-desk validate with a sheet', () => {
  it('a CSV with errors exits 1, with --all each problem as line N, column "Header", notes first', async () => {
    const run = await runCli(['validate', await scratchFile('skus.csv', CSV), '--all'])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('')
    const out = lines(run.stdout)
    expect(out[0]).toBe('note: column "Notes" matches no field of the contract and is ignored')
    expect(out).toContain('line 3, column "Intensity": Intensity must be a number, not the text "high"')
    expect(out).toContain(
      'line 3, column "Active": Active must be yes or no (true/false, Y/N, 1/0), not the text "perhaps"',
    )
    expect(out).toContain('line 2: Barcode is missing (warning)')
    expect(out).toContain('line 3: Barcode is missing (warning)')
    // Each reason the row is held back for, not only the first: filling in the barcode alone
    // would have been met with the category next.
    expect(out.slice(-4)).toEqual([
      expect.stringMatching(/^2 SKUs checked: 1 valid, 1 invalid, \d+ warnings$/),
      '1 SKU valid; 0 sendable; 1 held back, some for more than one reason: no barcode (1); category is empty; this check requires it (1)',
      '  no barcode: line 2',
      '  category is empty; this check requires it: line 2',
    ])
  })

  it('without --all, the same problem of several rows is one line naming its rows, errors first', async () => {
    const out = lines((await runCli(['validate', await scratchFile('grouped.csv', CSV)])).stdout)
    const problems = out.filter((line) => !line.startsWith('note:')).slice(0, -4)
    expect(problems).toEqual([
      'line 3, column "Intensity": Intensity must be a number, not the text "high"',
      'line 3, column "Active": Active must be yes or no (true/false, Y/N, 1/0), not the text "perhaps"',
      'Category is missing (warning): lines 2, 3',
      'Sub-category is missing (warning): lines 2, 3',
      'Product image is missing (warning): lines 2, 3',
      'Barcode is missing (warning): lines 2, 3',
    ])
  })

  it('a group said by its kind quotes its first row’s cell, so "…" is not taken for what the cells hold', async () => {
    // A tryout read `Barcode "…" is no GTIN` over rows of a shop's own codes.
    const csv = ['Product name,EAN,Category', 'A,EG00000001,eyewear', 'B,GUT100,eyewear'].join('\n')
    const out = lines((await runCli(['validate', await scratchFile('placeholders.csv', csv)])).stdout)
    expect(out).toContain(
      'column "EAN": Barcode "…" is no GTIN (8, 12, 13 or 14 digits), though its column names one: check that it is the product’s barcode (warning): lines 2, 3 (line 2: “EG00000001”)',
    )
  })

  it('a file saved without its header row is said to be read so, first of all', async () => {
    // A real list of lipstick shades (brand, shade number, shade name, R, G, B) had no header.
    const csv = 'medora ,568 matte,epic night ,150,40,78\nloreal,800,Matte-caron,206,134,135\n'
    const out = lines((await runCli(['validate', await scratchFile('shades.csv', csv)])).stdout)
    expect(out[0]).toBe(
      'note: No cell of the first row names a field, and 3 look like values ("150", "40", "78"): the first row is read as the header; if the file has none, add a row naming its columns (such as Product name, Barcode, Brand)',
    )
  })

  it("a problem on the spreadsheet's line 4 is said line 4, whatever its cells hold; --json has row and line", async () => {
    // Line 1 the header, line 2 a row whose note holds line breaks (still one line of a spreadsheet),
    // line 3 the template's help row, line 4 the row with the error.
    const csv =
      'Product name,Intensity,Notes\r\n' +
      '"Aviator","1.2","first line\r\nsecond line\r\nthird line"\r\n' +
      '# help: the columns. (This row is help: the importer skips it.),,\r\n' +
      'Kids Round,high,\r\n'
    const file = await scratchFile('line-4.csv', csv)
    const text = await runCli(['validate', file])
    expect(lines(text.stdout)).toContain(
      'line 4, column "Intensity": Intensity must be a number, not the text "high"',
    )
    const summary = JSON.parse((await runCli(['validate', file, '--json'])).stdout) as SheetSummary
    expect(summary.errors).toEqual([
      {
        row: 3,
        line: 4,
        column: 'Intensity',
        value: 'high',
        message: 'Intensity must be a number, not the text "high"',
      },
    ])
    expect(summary.holds).toContainEqual(expect.objectContaining({ row: 1, line: 2, reason: 'identity' }))
  })

  // A tryout's stock sheet (SKU, SIZE, WAREHOUSE, QTY): beside "this is not a SKU", every field
  // "is missing" on every row, "165 SKU rows hold 1 distinct SKU" and its codes "listed twice?".
  it('a sheet of no SKU field (a stock list) says so once, and nothing of fields or repeats', async () => {
    const stock = ['SKU,SIZE,WAREHOUSE,QTY', 'OBRB1061TK,98,MP,1', 'OBRB1061TK,104,MP,2', 'B4440RG,80,MP,0']
    const run = await runCli(['validate', await scratchFile('zalihe.csv', stock.join('\n'))])
    expect(run.code).toBe(1)
    const out = lines(run.stdout).filter((line) => !line.startsWith('note: '))
    expect(out).toEqual([
      'None of the contract’s SKU fields is here (such as productName or barcode): this is not a SKU: lines 2, 3, 4',
      '3 SKUs checked: 0 valid, 3 invalid, 0 warnings',
      '0 SKUs valid; 0 sendable; 0 held back',
    ])
  })

  it('a place is numbered as the spreadsheet shows it; counts have their thousands separated', async () => {
    const rows = ['Product name,Intensity']
    for (let i = 1; i <= 3_001; i++) rows.push(i === 3_001 ? 'Last,high' : `Aviator ${i},1`)
    const out = lines(
      (await runCli(['validate', await scratchFile('thousands.csv', rows.join('\n'))])).stdout,
    )
    expect(out).toContain('line 3002, column "Intensity": Intensity must be a number, not the text "high"')
    expect(out).toContainEqual(
      expect.stringMatching(/^3,001 SKUs checked: 3,000 valid, 1 invalid, \d{1,3}(,\d{3})* warnings$/),
    )
    expect(out).toContain('  no barcode: lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 2,990 more')
  })

  it('a column without a header is said to be unread when it holds something, and not when empty', async () => {
    const csv = 'barcode,Product name,,\n0012,Aviator,important data,\n0013,Round,,\n'
    const out = lines((await runCli(['validate', await scratchFile('blank-header.csv', csv)])).stdout)
    expect(out.filter((line) => line.startsWith('note: column'))).toEqual([
      'note: column 3 has no header, so its cells are not read',
    ])
  })

  it("--json gives row (the data row), line (the spreadsheet's) and column instead of index and path", async () => {
    const run = await runCli(['validate', '--json', await scratchFile('skus2.csv', CSV)])
    expect(run.code).toBe(1)
    const summary = JSON.parse(run.stdout) as SheetSummary
    expect(summary).toMatchObject({ kind: 'csv', items: 2, valid: 1, invalid: 1 })
    expect(summary.errors).toEqual([
      {
        row: 2,
        line: 3,
        column: 'Intensity',
        value: 'high',
        message: 'Intensity must be a number, not the text "high"',
      },
      {
        row: 2,
        line: 3,
        column: 'Active',
        value: 'perhaps',
        message: 'Active must be yes or no (true/false, Y/N, 1/0), not the text "perhaps"',
      },
    ])
    expect(summary.warnings).toContainEqual({
      row: 1,
      line: 2,
      column: '',
      value: '',
      message: 'Barcode is missing',
    })
    expect(summary.notes.filter((note) => note.startsWith('column'))).toEqual([
      'column "Notes" matches no field of the contract and is ignored',
    ])
  })

  it('an XLSX with errors: the same, kind xlsx', async () => {
    const file = await scratchFile('skus.xlsx', await writeXlsx(ROWS))
    const run = await runCli(['validate', file])
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(
      'line 3, column "Intensity": Intensity must be a number, not the text "high"\n',
    )
    const json = JSON.parse((await runCli(['validate', file, '--json'])).stdout) as SheetSummary
    expect(json).toMatchObject({ kind: 'xlsx', items: 2, invalid: 1 })
  })

  it('an XLSX of two sheets: the first is read, and a note names the other', async () => {
    const cells = (rows: string[][]) => rows.map((row) => row.map((value) => ({ value })))
    const blob = await writeXlsxFile([
      { sheet: 'SKUs', data: cells(ROWS) },
      { sheet: 'Variants', data: cells([['Barcode', 'Colour']]) },
    ]).toBlob()
    const file = await scratchFile('two-sheets.xlsx', new Uint8Array(await blob.arrayBuffer()))
    const json = JSON.parse((await runCli(['validate', file, '--json'])).stdout) as SheetSummary
    expect(json).toMatchObject({ kind: 'xlsx', items: 2 })
    expect(json.notes).toContain(
      'The workbook has 2 sheets: the first, “SKUs”, is read; “Variants” is not. To import another, move it first, or save it alone as CSV.',
    )
  })

  it('a filled-in template is valid, the help row skipped; held back until its sample addresses are replaced', async () => {
    const run = await runCli(['validate', await scratchFile('template.csv', templateCsv())])
    expect(run).toMatchObject({ code: 1, stderr: '' })
    expect(run.stdout).toContain(
      '1 SKU checked: 1 valid, 0 invalid, 0 warnings\n1 SKU valid; 0 sendable; 1 held back: using the sample model or pictures (1)\n',
    )
    const own = templateCsv().replaceAll(`${SAMPLE_ORIGIN}/`, 'https://cdn.example.com/')
    const mine = await runCli(['validate', await scratchFile('mine.csv', own)])
    expect(mine).toMatchObject({ code: 0, stderr: '' })
    expect(mine.stdout).toBe(
      '1 SKU checked: 1 valid, 0 invalid, 0 warnings\n1 SKU valid; 1 sendable; 0 held back\n',
    )
  })

  it('the format is sniffed when the name does not say', async () => {
    const xlsx = await scratchFile('skus-xlsx.data', await writeXlsx(ROWS))
    expect(JSON.parse((await runCli(['validate', '--json', xlsx])).stdout)).toMatchObject({ kind: 'xlsx' })
    const csv = await scratchFile('skus-csv.data', CSV)
    expect(JSON.parse((await runCli(['validate', '--json', csv])).stdout)).toMatchObject({ kind: 'csv' })
    const json = await scratchFile('sku.data', '{"productName": "Aviator"}')
    expect(JSON.parse((await runCli(['validate', '--json', json])).stdout)).toMatchObject({ kind: 'sku' })
  })

  it('a header-only sheet is warned about, and exits 1 from validate and convert', async () => {
    const sheet = await scratchFile('header-only.csv', 'productName,brand\r\n')
    expect((await runCli(['convert', sheet, join(scratch, 'header-only.json')])).code).toBe(1)
    const run = await runCli(['validate', sheet])
    expect(run.code).toBe(1)
    expect(lines(run.stdout)).toEqual([
      'The file holds no SKUs (warning)',
      '0 SKUs checked: 0 valid, 0 invalid, 1 warning',
    ])
  })

  it.each([
    ['bad-files/empty.csv', 'The file is empty.'],
    ['bad-files/photo-renamed.csv', 'The file is not text'],
    ['bad-files/latin1.csv', 'The file is not UTF-8 text'],
    ['bad-files/colon-separated.csv', '1 column found'],
    ['bad-files/text-renamed.xlsx', 'The file is not an XLSX workbook.'],
  ])('an unreadable sheet (%s) exits 2 and says why', async (name, message) => {
    const run = await runCli(['validate', `test/fixtures/${name}`, '--json'])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(`catalog-desk: Cannot read test/fixtures/${name}: ${message}`)
  })
})
