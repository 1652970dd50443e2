import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openInputFile } from '#cli/input-file.ts'
import { SheetFileError } from '#shared/sheet/errors.ts'
import { skusToXlsx } from '#shared/sheet/export.ts'
import { fileKind, SNIFF_BYTES } from '#shared/sheet/file-kind.ts'
import { FIXTURES_DIR, fixture } from '../shared/contract-fixtures.ts'
import { runCli } from '../cli/run-cli.ts'

// The import's worker and `catalog-desk validate` tell a file's kind with one detector: the same
// file, under the same name, goes to the same reader or is refused in the same words, whichever
// opens it. The files are real ones (or, for the HTML table, written the way shops write it) put
// under the name a shop's export gives them.

const REAL = join(FIXTURES_DIR, 'sheets/exports/real')
const BAD = join(FIXTURES_DIR, 'bad-files')

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-file-kind-'))
  await copyFile(join(REAL, 'woocommerce-sample-products.csv'), join(scratch, 'products.xls'))
  await copyFile(join(REAL, 'google-merchant-example-feed.atom.xml'), join(scratch, 'feed.txt'))
  await copyFile(join(BAD, 'xlrd-ragged.xls'), join(scratch, 'ragged.xls'))
  await copyFile(join(BAD, 'html-table-renamed.xls'), join(scratch, 'table.xls'))
  await copyFile(join(BAD, 'text-renamed.xlsx'), join(scratch, 'text.xlsx'))
  await copyFile(join(REAL, 'shopify-admin-api-products.json'), join(scratch, 'products-export'))
  await writeFile(join(scratch, 'workbook.xls'), await skusToXlsx([fixture('sku-eyewear-full.json')]))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

/** What the import's worker makes of a file: its name and first bytes, as it reads them. */
function inThePage(name: string): string {
  const head = new Uint8Array(readFileSync(join(scratch, name))).subarray(0, SNIFF_BYTES)
  try {
    return fileKind(name, head)
  } catch (error) {
    if (error instanceof SheetFileError) return `refused: ${error.message}`
    throw error
  }
}

/** What the CLI makes of the same file. */
async function inTheCli(name: string): Promise<string> {
  try {
    return (await openInputFile(name, scratch)).format
  } catch (error) {
    return `refused: ${(error as Error).message.replace(`Cannot read ${name}: `, '')}`
  }
}

describe('one file-kind detector for the import and the CLI', () => {
  it.each([
    ['products.xls', 'csv'], // a CSV export that a shop names .xls
    ['workbook.xls', 'xlsx'], // an XLSX zip under the old name
    ['feed.txt', 'xml'], // a Merchant Center feed, told by its <feed
    ['products-export', 'json'], // JSON with no telling name, told by its [ or {
    [
      'ragged.xls',
      'refused: The file is an old Excel workbook (.xls) or a password-protected one. Save it as .xlsx (Excel Workbook) or CSV UTF-8.',
    ],
    [
      'table.xls',
      'refused: The file is a web page (HTML), whatever its name says: some shops export a table so. Open it in Excel and save it as .xlsx (Excel Workbook) or CSV UTF-8.',
    ],
    ['text.xlsx', 'refused: The file is not an XLSX workbook. Choose an .xlsx, a .csv or a .json file.'],
  ])('%s: %s, in the page and the CLI alike', async (name, kind) => {
    expect(inThePage(name)).toBe(kind)
    expect(await inTheCli(name)).toBe(kind)
  })

  it('a CSV export named .xls is validated as the CSV it is', async () => {
    const run = await runCli(['validate', join(scratch, 'products.xls'), '--json'])
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toMatchObject({ kind: 'csv' })
  })

  it('a web page named .xls is refused by the CLI in words that say what to do', async () => {
    const run = await runCli(['validate', join(scratch, 'table.xls')])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('The file is a web page (HTML)')
  })
})
