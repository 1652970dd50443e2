import { describe, expect, it } from 'vitest'
import { parseCsvText, streamCsv, toCsv } from '#shared/sheet/csv.ts'

const SKU_ROWS = [
  ['Aviator', 'Northwind', '8901234567890'],
  ['Kids Round', 'Northwind', '0012'],
]

describe('parseCsvText', () => {
  it.each([
    [',', 'comma'],
    [';', 'semicolon'],
    ['\t', 'tab'],
    ['|', 'bar'],
  ])('detects the delimiter %j (%s)', (delimiter) => {
    const text = [['productName', 'brand', 'barcode'], ...SKU_ROWS]
      .map((row) => row.join(delimiter))
      .join('\n')
    expect(parseCsvText(text)).toEqual({
      headers: ['productName', 'brand', 'barcode'],
      rows: SKU_ROWS,
      notes: [],
    })
  })

  it('drops a byte order mark and reads CRLF, LF and CR line ends', () => {
    for (const newline of ['\r\n', '\n', '\r']) {
      const text = `\uFEFFproductName,brand${newline}Aviator,Northwind${newline}`
      expect(parseCsvText(text)).toEqual({
        headers: ['productName', 'brand'],
        rows: [['Aviator', 'Northwind']],
        notes: [],
      })
    }
  })

  it('reads quoted cells holding delimiters, quotes and line breaks', () => {
    const text = 'productName,brand\r\n"Aviator, ""Classic""","North\r\nwind"\r\n"a;b",c\r\n'
    expect(parseCsvText(text).rows).toEqual([
      // Line breaks inside cells come out as LF, as every other line break.
      ['Aviator, "Classic"', 'North\nwind'],
      ['a;b', 'c'],
    ])
  })

  it('reads a file whose lines end in CRLF, LF and CR mixed, one row a line', () => {
    const text = 'productName,barcode\r\nA,1\r\nB,2\nC,3\rD,4\r\n'
    expect(parseCsvText(text).rows).toEqual([
      ['A', '1'],
      ['B', '2'],
      ['C', '3'],
      ['D', '4'],
    ])
  })

  it.each([';', '\t', '|'])('tells a small file separated by %j from one column', (delimiter) => {
    const text =
      ['productName', 'barcode'].join(delimiter) + '\r\nA' + delimiter + '1\r\nB' + delimiter + '2\r\n'
    expect(parseCsvText(text)).toMatchObject({
      headers: ['productName', 'barcode'],
      rows: [
        ['A', '1'],
        ['B', '2'],
      ],
    })
  })

  it('ragged rows: missing cells are empty, extra cells are dropped and noted once', () => {
    const text = 'a,b,c\n1\n1,2,3,4\n1,2,3,4,5\n1,2,3,,\n'
    const sheet = parseCsvText(text)
    expect(sheet.rows).toEqual([
      ['1', '', ''],
      ['1', '2', '3'],
      ['1', '2', '3'],
      ['1', '2', '3'],
    ])
    expect(sheet.notes).toEqual([
      'Line 3 has 4 cells but the header names 3 columns; cells beyond the last column are ignored.',
    ])
  })

  it('counts blank lines before the header as rows, as blank rows after it, so row numbers stay true', () => {
    // The header is line 3, Aviator line 5: data row 4.
    expect(parseCsvText('\n\nproductName,brand\n\nAviator,Northwind\n').rows).toEqual([
      ['', ''],
      ['', ''],
      ['', ''],
      ['Aviator', 'Northwind'],
    ])
  })

  // Meta's catalog template, downloaded in Russian and filled in (a real shop's): its first line is
  // help for each column, and was taken for the header, so no column was read.
  it('reads a line of help for each column above the header as a line before it, and says so', () => {
    const text =
      '# Обязательно | A unique content ID for the item. Character limit: 100,# Обязательно | A specific and relevant title for the item,# Optional | The brand\n' +
      'id,title,brand\nDB_1,Aviator,Northwind\n'
    const read = parseCsvText(text)
    expect(read.headers).toEqual(['id', 'title', 'brand'])
    // Aviator is line 3, as the spreadsheet shows it.
    expect(read.rows).toEqual([
      ['', '', ''],
      ['DB_1', 'Aviator', 'Northwind'],
    ])
    expect(read.notes).toEqual([
      'Line 1 is help for each column (“# Required | …”, as Meta’s catalog template writes it), not the header: the header is read from the line after it.',
    ])
    // A header whose first column is named "#" is a header.
    expect(parseCsvText('#,Name\n1,Aviator\n').headers).toEqual(['#', 'Name'])
  })

  // A real Russian WooCommerce export (a WordPress page's stray output before the file) begins so.
  it('drops a byte order mark that comes after a blank line and a tab, not only one at the start', () => {
    const read = parseCsvText('\n\t\uFEFFID,Name\n40,Aviator\n')
    expect(read.headers).toEqual(['ID', 'Name'])
    expect(read.rows).toEqual([
      ['', ''],
      ['40', 'Aviator'],
    ])
    expect(parseCsvText(' ID,Name\n40,Aviator\n').headers).toEqual([' ID', 'Name'])
  })

  it('strips a stray CR of CRLF lines in a mostly-LF file', () => {
    expect(parseCsvText('a,b\n1,2\r\n3,4\n').rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ])
  })
})

describe('streamCsv', () => {
  const big = [
    'productName,brand,note',
    ...Array.from({ length: 3000 }, (_, i) => `SKU ${i},Brand,"line one\nline two, ${i}"`),
  ].join('\r\n')

  it.each([
    ['a string', big],
    ['a Blob', new Blob([big])],
  ])('hands over the same rows as parseCsvText whatever the chunk size (%s)', async (_, input) => {
    for (const chunkBytes of [7, 1000, 1 << 20]) {
      const rows: string[][] = []
      let headers: string[] = []
      let last = { bytes: 0, total: 0 }
      const result = await streamCsv(
        input,
        {
          onHeader: (h) => (headers = h),
          onRows: async (batch, progress) => {
            rows.push(...batch)
            last = progress
            await Promise.resolve()
          },
        },
        { chunkBytes },
      )
      expect(headers).toEqual(['productName', 'brand', 'note'])
      expect(rows).toEqual(parseCsvText(big).rows)
      expect(result.rows).toBe(3000)
      expect(last.bytes).toBe(last.total)
    }
  })

  it('names the row of a quote never closed, however the file was cut into chunks', async () => {
    const lines = [
      'productName,brand',
      ...Array.from({ length: 39 }, (_, i) => `SKU ${i},Brand`),
      'SKU 39,"Brand',
    ]
    const text = lines.join('\n') + '\nSKU 40,Brand\n'
    expect(() => parseCsvText(text)).toThrow('A quote (") opened in line 41 is never closed')
    // Two blank lines before the header: the spreadsheet's line 43.
    expect(() => parseCsvText(`\n\n${text}`)).toThrow('A quote (") opened in line 43 is never closed')
    expect(() => parseCsvText('\n\nproductName,"brand\nA,B\n')).toThrow('A quote (") opened in the header')
    expect(() => parseCsvText('productName,"brand\nA,B\n')).toThrow('A quote (") opened in the header')
    for (const chunkBytes of [64, 1000]) {
      await expect(streamCsv(text, { onHeader: () => {}, onRows: () => {} }, { chunkBytes })).rejects.toThrow(
        'A quote (") opened in line 41 is never closed',
      )
      await expect(
        streamCsv(`\n\n${text}`, { onHeader: () => {}, onRows: () => {} }, { chunkBytes }),
      ).rejects.toThrow('A quote (") opened in line 43 is never closed')
    }
  })

  it('stops when aborted', async () => {
    const controller = new AbortController()
    const run = streamCsv(
      big,
      { onHeader: () => {}, onRows: () => controller.abort(new Error('stopped by the user')) },
      { chunkBytes: 1000, signal: controller.signal },
    )
    await expect(run).rejects.toThrow('stopped by the user')
  })

  it('decodes UTF-8 split across chunks', async () => {
    const text = 'productName\nLunettes été\n'
    const rows: string[][] = []
    await streamCsv(
      new Blob([text]),
      { onHeader: () => {}, onRows: (batch) => void rows.push(...batch) },
      { chunkBytes: 1 },
    )
    expect(rows).toEqual([['Lunettes été']])
  })
})

describe('toCsv', () => {
  it('writes RFC 4180 CSV with CRLF and a UTF-8 byte order mark, quoting only what needs it', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x, y', 'say "hi"'],
          ['line\nbreak', 'plain'],
        ],
      ),
    ).toBe('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n"line\nbreak",plain\r\n')
  })

  it('escapes formula-like text but not plain numbers', () => {
    expect(
      toCsv(['v'], [['=1+2'], ['+cmd'], ['-2+3'], ['@SUM(A1)'], ['\tx'], ['-2.5'], ['+1e3'], ["'=x"]]),
    ).toBe("\uFEFFv\r\n'=1+2\r\n'+cmd\r\n'-2+3\r\n'@SUM(A1)\r\n'\tx\r\n-2.5\r\n+1e3\r\n''=x\r\n")
  })
})
