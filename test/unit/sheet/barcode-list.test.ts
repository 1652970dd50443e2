import { describe, expect, it } from 'vitest'
import { BarcodeListError, readBarcodeList } from '#shared/sheet/barcode-list.ts'
import { toCsv } from '#shared/sheet/csv.ts'
import { writeXlsx } from '#shared/sheet/xlsx.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
const read = (text: string) => readBarcodeList(bytes(text))

describe('a list of barcodes from the platform', () => {
  it('reads a plain list, one barcode a line, as text: leading zeros stay, spaces and repeats go', async () => {
    expect(await read('0012345\n 8901000000042 \r\n\n0012345\n00099\n')).toEqual({
      barcodes: ['0012345', '8901000000042', '00099'],
    })
  })

  it('skips a heading without digits over a single column, and reads a UTF-8 BOM and UTF-16 alike', async () => {
    expect(await read('\uFEFFCodes\n0012345\n')).toEqual({ barcodes: ['0012345'], column: 'Codes' })
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...new Uint8Array(new Uint16Array([...'EAN\r\n007\r\n'].map((c) => c.charCodeAt(0))).buffer),
    ])
    expect(await readBarcodeList(utf16)).toEqual({ barcodes: ['007'], column: 'EAN' })
  })

  it('takes the barcode column of a sheet with others, by the names the importer knows', async () => {
    expect(await read('name;Barcode;price\nAviator;0042;10\nRound;0043;12\n')).toEqual({
      barcodes: ['0042', '0043'],
      column: 'Barcode',
    })
    expect((await read('GTIN,title\n0001,A\n')).barcodes).toEqual(['0001'])
  })

  it('reads back the app’s own export, formula escapes undone', async () => {
    const csv = toCsv(
      ['barcode', 'product name', 'state'],
      [
        ['0012345', 'Frame', 'unknown'],
        ['=42', 'Odd', 'failed'],
      ],
    )
    expect((await read(csv)).barcodes).toEqual(['0012345', '=42'])
  })

  it('reads an XLSX workbook’s first sheet, text cells as written', async () => {
    const workbook = await writeXlsx([
      ['EAN', 'note'],
      ['0012345', 'x'],
      ['', ''],
      ['0067', 'y'],
    ])
    expect(await readBarcodeList(workbook)).toEqual({ barcodes: ['0012345', '0067'], column: 'EAN' })
    // A one-column workbook without a heading is a plain list.
    expect((await readBarcodeList(await writeXlsx([['0012345'], ['0067']]))).barcodes).toEqual([
      '0012345',
      '0067',
    ])
  })

  it('accepts a list with a heading and no barcodes: the platform has none of them', async () => {
    expect(await read('barcode\n')).toEqual({ barcodes: [], column: 'barcode' })
  })

  it.each([
    ['an empty file', '', /empty/],
    [
      'several columns, none of barcodes',
      'name,price\nAviator,10\n',
      /2 columns and none is headed "barcode"/,
    ],
    ['a barcode a spreadsheet shortened', 'barcode\n0012345\n8.90123E+12\n', /Row 3 holds "8\.90123E\+12"/],
    ['JSON', '{"skus": [{"barcode": "1"}]}', /JSON/],
    ['a cell of prose', `barcode\n${'x'.repeat(200)}\n`, /not a barcode/],
    ['a quote never closed', 'barcode\n"0012\n', /never closed/],
  ])('refuses %s, saying why', async (_what, text, message) => {
    const reading = read(text)
    await expect(reading).rejects.toBeInstanceOf(BarcodeListError)
    await expect(read(text)).rejects.toThrow(message)
  })

  it('refuses a binary file and a damaged workbook', async () => {
    await expect(readBarcodeList(new Uint8Array([0, 1, 2, 3, 0, 0]))).rejects.toThrow(/not text/)
    await expect(readBarcodeList(new Uint8Array([0x50, 0x4b, 3, 4, 9, 9, 9]))).rejects.toThrow(
      BarcodeListError,
    )
    await expect(readBarcodeList(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 1]))).rejects.toThrow(/\.xls/)
  })
})

describe('a list from the platform with its ids (issue #34)', () => {
  const idsOf = async (text: string) => {
    const list = await read(text)
    return list.ids && { column: list.ids.column, byBarcode: Object.fromEntries(list.ids.byBarcode) }
  }

  it('reads the id column beside the barcodes, under the headings an export would give it', async () => {
    expect(await read('barcode,_id,name\n0012,a1,X\n0013,,Y\n0012,a1,X again\n')).toEqual({
      barcodes: ['0012', '0013'],
      column: 'barcode',
      // A blank id gives that barcode none; the same id twice is the same SKU.
      ids: { column: '_id', byBarcode: new Map([['0012', 'a1']]) },
    })
    // An id escaped against formulas on export ('-7) reads as it was.
    for (const heading of ['id', 'ID', 'skuId', 'SKU id', 'sku_id', 'Platform ID', 'platform SKU id'])
      expect(await idsOf(`EAN;${heading}\n 0042 ; '-7 \n`)).toEqual({
        column: heading,
        byBarcode: { '0042': '-7' },
      })
    // `_id` is preferred to a "platform id" column beside it.
    expect((await idsOf('platform id,barcode,_id\np,1,q\n'))?.column).toBe('_id')
  })

  it('finds no ids where no column is headed so: the app’s own export, a plain list', async () => {
    const exported =
      'barcode,product name,run,time sent,request id,state,message\n0012,F,r,t,req-1,unknown,m\n'
    expect((await read(exported)).ids).toBeUndefined()
    expect((await read('0012\n0013\n')).ids).toBeUndefined()
    expect((await read('id\n0012\n')).ids).toBeUndefined()
  })

  it('refuses a barcode listed with two ids, naming it, its ids and their rows', async () => {
    await expect(read('barcode,skuId\n8901000000042,a1\n0013,b\n 8901000000042 ,a2\n')).rejects.toThrow(
      new BarcodeListError(
        'Barcode 8901000000042 is listed with two ids: a1 and a2 (rows 2 and 4). The platform keeps one SKU a barcode: keep the row of the right one.',
      ),
    )
  })

  it.each([
    [
      'a slash, which would add a segment to the address',
      'a/1',
      'Row 3 holds the id "a/1" in the column "id"',
    ],
    ['a space', 'a 1', 'Row 3 holds the id "a 1"'],
    ['a number a spreadsheet shortened', '1.2345E+15', 'a number a spreadsheet shortened'],
    ['prose', 'x'.repeat(300), `"${'x'.repeat(40)}…"`],
  ])('refuses an id with %s, naming its row', async (_what, id, message) => {
    const reading = read(`barcode,id\n0012,ok-1\n0013,${id}\n`)
    await expect(reading).rejects.toBeInstanceOf(BarcodeListError)
    await expect(read(`barcode,id\n0012,ok-1\n0013,${id}\n`)).rejects.toThrow(message)
  })
})
