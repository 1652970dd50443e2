import { spawn } from 'node:child_process'
import { createReadStream, existsSync, readFileSync, readdirSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { MAX_XLSX_BYTES } from '#cli/input-file.ts'
import type { SheetSummary } from '#cli/sheet-report.ts'
import { MAX_XLSX_SKUS } from '#cli/sku-output.ts'
import { JsonItemReader } from '#shared/json-items.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { SheetFileError } from '#shared/sheet/errors.ts'
import { bulkRequestJson, skusToCsv } from '#shared/sheet/export.ts'
import { applyMappingFile } from '#shared/sheet/mapping.ts'
import { matchOptionsOf, productLayout } from '#shared/sheet/products.ts'
import { readSheet } from '#shared/sheet/rows.ts'
import type { CellProblem } from '#shared/sheet/types.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import { validateDocument } from '#shared/validation/document.ts'
import { FIXTURES_DIR, REPO_ROOT } from '../shared/contract-fixtures.ts'
import { runCli } from './run-cli.ts'

/**
 * The CLI reads CSV and JSON as they stream and writes as it goes (issue #18): files larger than
 * the memory it is given are converted whole, JSON too large for one string is read, and what it
 * writes is byte for byte what the whole-file writers make of the same input.
 */

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-streaming-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})
const at = (name: string) => join(scratch, name)

/** The CLI as a process of its own, with `heapMb` of heap at most; what it says on stderr, and its status. */
function runProcess(args: string[], heapMb?: number): Promise<{ code: number | null; stderr: string }> {
  const flags = heapMb === undefined ? [] : [`--max-old-space-size=${heapMb}`]
  const child = spawn(process.execPath, [...flags, join(REPO_ROOT, 'scripts/cli.js'), ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stderr }))
  })
}

async function countLines(path: string): Promise<number> {
  let lines = 0
  for await (const chunk of createReadStream(path)) {
    for (const byte of chunk as Buffer) if (byte === 0x0a) lines++
  }
  return lines
}

async function countJsonItems(path: string): Promise<number> {
  const reader = new JsonItemReader()
  let items = 0
  for await (const chunk of createReadStream(path, { encoding: 'utf8' }))
    items += reader.push(chunk as string, false).length
  return items + reader.push('', true).length
}

const ROWS = 200_000
/** A row of the fields a shop's sheet has, with long addresses: some 350 bytes. */
const shopRow = (i: number) => ({
  productName: `Aviator Classic ${i}`,
  barcode: String(8_901_000_000_000 + i),
  brand: 'Northwind Optics & Lens Company Ltd',
  category: 'eyewear',
  subCategory: 'sunglasses',
  productImage: `https://cdn.example.com/catalog/images/products/sunglasses/aviator-classic-${i}/front-view-large-high-resolution.png`,
  actionUrl: `https://shop.example.com/collections/sunglasses-and-eyewear/products/aviator-classic-${i}?variant=default&utm_source=catalog-desk`,
})

describe('files larger than the memory the CLI is given', () => {
  it(`converts a ${ROWS.toLocaleString('en-US')}-row CSV (larger than its 64 MB heap) to CSV: every row written`, async () => {
    const columns = Object.keys(shopRow(0))
    const lines = [columns.join(',')]
    for (let i = 0; i < ROWS; i++) lines.push(Object.values(shopRow(i)).join(','))
    const text = lines.join('\n') + '\n'
    await writeFile(at('shop.csv'), text)
    expect(text.length).toBeGreaterThan(64 * 1024 * 1024)

    const run = await runProcess(['convert', at('shop.csv'), at('shop-out.csv')], 64)
    expect(run).toEqual({ code: 0, stderr: '' })
    // The header, then one line a row.
    expect(await countLines(at('shop-out.csv'))).toBe(ROWS + 1)
    await rm(at('shop.csv'))
    await rm(at('shop-out.csv'))
  }, 180_000)

  it(`converts a JSON list of ${ROWS.toLocaleString('en-US')} SKUs (larger than its 64 MB heap) to a bulk request`, async () => {
    const items = Array.from({ length: ROWS }, (_, i) => JSON.stringify(shopRow(i)))
    const text = `[\n${items.join(',\n')}\n]\n`
    await writeFile(at('shop.json'), text)
    expect(text.length).toBeGreaterThan(64 * 1024 * 1024)

    const run = await runProcess(['convert', at('shop.json'), at('shop-out.json')], 64)
    expect(run).toEqual({ code: 0, stderr: '' })
    expect(await countJsonItems(at('shop-out.json'))).toBe(ROWS)
    await rm(at('shop.json'))
    await rm(at('shop-out.json'))
  }, 180_000)
})

describe('a file too large to be read whole is never called "not UTF-8"', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('decodeText says the file is too large when the text would be longer than the engine allows', () => {
    // Node's words for 600 MB of text, without making 600 MB in a test.
    class TooLong {
      decode(): string {
        throw Object.assign(new Error('Cannot create a string longer than 0x1fffffe8 characters'), {
          code: 'ERR_STRING_TOO_LONG',
        })
      }
    }
    vi.stubGlobal('TextDecoder', TooLong)
    const error = (() => {
      try {
        decodeText(new Uint8Array([0x7b, 0x7d]), 'json')
      } catch (caught) {
        return caught as SheetFileError
      }
      throw new Error('the bytes were read')
    })()
    expect(error).toBeInstanceOf(SheetFileError)
    expect(error.code).toBe('too-large')
    expect(error.message).toMatch(/^The file is too large to be read whole/)
    expect(error.message).not.toContain('UTF-8')
  })

  it('bytes that are not UTF-8 are still said to be so, in a JSON file read as it streams', async () => {
    const sku = JSON.stringify({ productName: 'Aviator', barcode: '1' })
    const head = Buffer.from(`[${Array.from({ length: 20_000 }, () => sku).join(',')},`)
    await writeFile(
      at('late-latin1.json'),
      Buffer.concat([head, Buffer.from('{"productName":"Caf\xe9"}]', 'latin1')]),
    )
    expect(head.length).toBeGreaterThan(512 * 1024)
    const run = await runCli(['validate', at('late-latin1.json')])
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `catalog-desk: Cannot read ${at('late-latin1.json')}: The file is not UTF-8 text. Re-encode it as UTF-8 (most editors offer it under "Save with encoding").\n`,
    })
  })
})

describe('workbooks are read and written whole, up to a stated size', () => {
  it('an XLSX over the limit is refused, naming the file and the limit', async () => {
    const big = new Uint8Array(MAX_XLSX_BYTES + 2 * 1024 * 1024)
    big.set([0x50, 0x4b, 0x03, 0x04])
    await writeFile(at('big.xlsx'), big)
    const run = await runCli(['validate', at('big.xlsx')])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      `catalog-desk: Cannot read ${at('big.xlsx')}: the workbook is 10.0 MB, and a workbook is read whole, up to 8.0 MB (about 40,000 rows of every column). Save it as CSV UTF-8, which is read as it streams, whatever its size.\n`,
    )
  })

  it('more SKUs than an XLSX is written with are refused, naming the limit, and nothing is written', async () => {
    const lines = ['productName,barcode']
    for (let i = 0; i <= MAX_XLSX_SKUS; i++) lines.push(`Aviator ${i},${i}`)
    await writeFile(at('many.csv'), lines.join('\n'))
    const run = await runCli(['convert', at('many.csv'), at('many.xlsx')])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      `catalog-desk: Cannot write ${at('many.xlsx')}: an XLSX written here holds at most 15,000 SKUs (a workbook is built whole in memory), and there are more. Write a .csv or .json file instead.\n`,
    )
    expect(existsSync(at('many.xlsx'))).toBe(false)
    expect(readdirSync(scratch).filter((name) => name.includes('partial'))).toEqual([])
  })
})

/** The SKUs the whole-file pipeline finds valid in a file: the sheet read at once, or the document parsed at once. */
function wholeFileSkus(path: string): Sku[] {
  const bytes = new Uint8Array(readFileSync(path))
  if (path.endsWith('.json')) {
    const report = validateDocument(JSON.parse(decodeText(bytes, 'json')))
    return report.items.filter((_, index) => report.reports[index]!.errors.length === 0) as Sku[]
  }
  const sheet = parseCsvText(decodeText(bytes))
  const { mapping } = applyMappingFile(sheet.headers, undefined, matchOptionsOf(productLayout(sheet.headers)))
  return readSheet(sheet, mapping)
    .results.filter((result) => result.errors.length === 0)
    .map((result) => result.sku)
}

const FIXTURE_FILES = [
  ...readdirSync(join(FIXTURES_DIR, 'sheets/exports'))
    .filter((name) => /\.(csv|tsv)$/.test(name))
    .map((name) => `sheets/exports/${name}`),
  'sheets/typos.csv',
  'bulk-upload-request.json',
  'sku-eyewear-full.json',
  'invalid/sku-list-mixed.json',
]

describe('what convert writes is what the whole-file writers write', () => {
  it.each(FIXTURE_FILES)('%s', async (name) => {
    const input = join(FIXTURES_DIR, name)
    const skus = wholeFileSkus(input)
    const base = name.replaceAll('/', '-')
    for (const [extension, expected] of [
      ['json', bulkRequestJson(skus)],
      ['csv', skusToCsv(skus, { headers: 'paths' })],
    ] as const) {
      const output = at(`${base}.${extension}`)
      const run = await runCli(['convert', input, output])
      expect(run.code).toBeLessThan(2)
      expect(await readFile(output, 'utf8')).toBe(expected)
    }
    const xlsx = at(`${base}.xlsx`)
    await runCli(['convert', input, xlsx])
    expect((await readXlsx(await readFile(xlsx))).rows).toEqual(
      parseCsvText(skusToCsv(skus, { headers: 'paths' })).rows,
    )
  })
})

describe('a report longer than what is held in memory', () => {
  it('lists every problem in file order, as JSON that parses, after the notes', async () => {
    const lines = ['Product name,Intensity,Notes']
    for (let i = 1; i <= 6_000; i++) lines.push(`Aviator ${i},${i % 3 === 0 ? 'high' : '1'},n`)
    await writeFile(at('warned.csv'), lines.join('\n'))
    const summary = JSON.parse(
      (await runCli(['validate', '--json', at('warned.csv')])).stdout,
    ) as SheetSummary
    const { results } = readSheet(parseCsvText(lines.join('\n')))
    // Each problem at its data row and, for a person, the spreadsheet's line (the header is line 1).
    const lined = (problems: CellProblem[]) =>
      problems.map((problem) => ({ ...problem, line: problem.row + 1 }))
    expect(summary.errors).toEqual(results.flatMap((result) => lined(result.errors)))
    expect(summary.warnings).toEqual(results.flatMap((result) => lined(result.warnings)))
    // Twice the megabyte a report keeps in memory.
    expect(JSON.stringify(summary).length).toBeGreaterThan(2 * 1024 * 1024)
    expect(summary.notes).toContain('column "Notes" matches no field of the contract and is ignored')

    const text = (await runCli(['validate', at('warned.csv'), '--all'])).stdout.trimEnd().split('\n')
    expect(text[0]).toBe('note: column "Notes" matches no field of the contract and is ignored')
    expect(text.filter((line) => line.startsWith('line '))).toHaveLength(
      summary.errors.length + summary.warnings.length,
    )
    const warnings = summary.warnings.length.toLocaleString('en-US')
    expect(text).toContain(`6,000 SKUs checked: 4,000 valid, 2,000 invalid, ${warnings} warnings`)
  })

  it('an app request given to convert leaves no file behind', async () => {
    const run = await runCli(['convert', join(FIXTURES_DIR, 'app-create-request.json'), at('app.json')])
    expect(run.code).toBe(2)
    expect(existsSync(at('app.json'))).toBe(false)
  })
})
