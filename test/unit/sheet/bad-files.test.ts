import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseCsvText, streamCsv } from '#shared/sheet/csv.ts'
import { decodeText } from '#shared/sheet/decode.ts'
import { SheetFileError } from '#shared/sheet/errors.ts'
import { skusToXlsx } from '#shared/sheet/export.ts'
import { documentToResults } from '#shared/sheet/rows.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import { FIXTURES_DIR, fixture } from '../shared/contract-fixtures.ts'

const bytes = (name: string) => new Uint8Array(readFileSync(`${FIXTURES_DIR}bad-files/${name}`))
const readCsvFile = (name: string) => parseCsvText(decodeText(bytes(name)))
const streamAll = (input: string | Blob) => streamCsv(input, { onHeader: () => {}, onRows: () => {} })

function refusal(run: () => unknown): SheetFileError {
  try {
    run()
  } catch (error) {
    if (error instanceof SheetFileError) return error
    throw error
  }
  throw new Error('the file was accepted')
}

async function asyncRefusal(run: () => Promise<unknown>): Promise<SheetFileError> {
  const error = await run().then(
    () => new Error('the file was accepted'),
    (caught: unknown) => caught,
  )
  if (error instanceof SheetFileError) return error
  throw error
}

describe('a corpus of bad files, each refused with a clear message', () => {
  it.each([
    ['empty.csv', 'empty', 'The file is empty.'],
    ['blank-lines.csv', 'no-header', 'The file has no header row: it holds only blank lines.'],
    ['photo-renamed.csv', 'binary', 'The file is not text: it looks like a binary file'],
    ['latin1.csv', 'not-utf8', 'The file is not UTF-8 text. Save it as "CSV UTF-8"'],
    [
      'colon-separated.csv',
      'one-column',
      '1 column found, headed "productName:brand:barcode": the columns could not be told apart.',
    ],
    ['unclosed-quote.csv', 'unclosed-quote', 'A quote (") opened in line 2 is never closed'],
  ])('%s', (name, code, message) => {
    const error = refusal(() => readCsvFile(name))
    expect(error.code).toBe(code)
    expect(error.message).toContain(message)
  })

  it.each(['empty.csv', 'photo-renamed.csv', 'latin1.csv', 'colon-separated.csv', 'unclosed-quote.csv'])(
    'the streaming reader refuses %s the same way',
    async (name) => {
      const expected = refusal(() => readCsvFile(name)).code
      const error = await asyncRefusal(() => streamAll(new Blob([bytes(name)])))
      expect(error.code).toBe(expected)
    },
  )

  // A real Italian price list (Windows-1252, "It´s" on line 14) said only "an invalid byte
  // within bytes 1–262144": the first 256 KB, for a person to search by hand.
  it('the streaming reader names the byte, its line and the text around it', async () => {
    const error = await asyncRefusal(() => streamAll(new Blob([bytes('latin1.csv')])))
    expect(error.message).toMatch(
      /^The file is not UTF-8 text: byte 28 \(line 2\) is 0xE9, in "Lunettes été,Northwind"; the file is likely in another encoding, such as Windows-1252\. Save it as "CSV UTF-8"/,
    )
  })

  it('10,000 columns', async () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `column${i}`).join(',') + '\n'
    const error = refusal(() => parseCsvText(text))
    expect(error.code).toBe('too-many-columns')
    expect(error.message).toBe(
      'The file has 10,000 columns; the contract has 56 and at most 2,000 are read. Is it a SKU sheet?',
    )
    expect((await asyncRefusal(() => streamAll(new Blob([text])))).code).toBe('too-many-columns')
  })

  it('a huge cell', async () => {
    const text = `productName,brand\n"${'x'.repeat(1_200_000)}",Northwind\n`
    const error = refusal(() => parseCsvText(text))
    expect(error.code).toBe('huge-cell')
    expect(error.message).toContain(
      'Line 2, column "productName", holds 1.1 MB of text; a cell may hold at most 1 MB.',
    )
  })

  it('an unclosed quote in a big file stops the streaming reader early', async () => {
    const text = `productName,brand\n"open${'x'.repeat(6_000_000)}`
    const error = await asyncRefusal(() =>
      streamCsv(new Blob([text]), { onHeader: () => {}, onRows: () => {} }, { chunkBytes: 1 << 20 }),
    )
    expect(error.code).toBe('unclosed-quote')
  })

  it('a truncated XLSX', async () => {
    const whole = await skusToXlsx([fixture('sku-eyewear-full.json')])
    const error = await asyncRefusal(() => readXlsx(whole.slice(0, Math.floor(whole.length / 2))))
    expect(error.code).toBe('not-xlsx')
    expect(error.message).toMatch(
      /^The workbook cannot be read: it is damaged, cut short or not an XLSX file/,
    )
  })

  it.each([
    ['text-renamed.xlsx', 'not-xlsx', 'The file is not an XLSX workbook.'],
    ['empty.csv', 'empty', 'The file is empty.'],
  ])('%s read as a workbook', async (name, code, message) => {
    const error = await asyncRefusal(() => readXlsx(bytes(name)))
    expect(error).toMatchObject({ code, message: expect.stringContaining(message) })
  })

  it('an old .xls workbook', async () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0])
    expect(await asyncRefusal(() => readXlsx(ole))).toMatchObject({ code: 'old-xls' })
  })

  it.each([
    ['string.json', 'SKU must be a group of fields (a JSON object), not the text "aviator"'],
    ['list-of-scalars.json', 'SKU must be a group of fields (a JSON object), not the number 1'],
  ])('JSON of the wrong shape: %s', (name, message) => {
    const document = JSON.parse(readFileSync(`${FIXTURES_DIR}bad-files/${name}`, 'utf8')) as unknown
    const { results } = documentToResults(document)
    expect(results[0]!.errors[0]!.message).toBe(message)
  })

  it('JSON whose skus is not a list', () => {
    const document = JSON.parse(
      readFileSync(`${FIXTURES_DIR}bad-files/skus-not-a-list.json`, 'utf8'),
    ) as unknown
    expect(documentToResults(document).documentErrors[0]).toMatchObject({
      row: 0,
      column: 'skus',
      message: 'The bulk request’s "skus" must be a list of SKUs',
    })
  })
})
