import { unzipSync, Zip, ZipDeflate } from 'fflate'
import { writeXlsx } from '#shared/sheet/xlsx.ts'
import { concatBytes } from '#shared/concat-bytes.ts'

/**
 * XLSX workbooks that unpack to far more than they weigh: a real workbook (write-excel-file's),
 * whose first sheet is replaced by `megabytes` of one row repeated, deflated by fflate as it is
 * pushed (nothing of that size is ever in memory here). 160 MB deflates to about 570 KB.
 */
export function xlsxBomb(megabytes: number): Promise<Uint8Array<ArrayBuffer>> {
  return workbookWithSheet((push) => {
    const row =
      '<row><c t="inlineStr"><is><t>Aviator</t></is></c><c t="inlineStr"><is><t>1234567890123</t></is></c></row>'
    const megabyte = new TextEncoder().encode(row.repeat(Math.ceil((1024 * 1024) / row.length)))
    push(
      encode(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
          '<row><c t="inlineStr"><is><t>productName</t></is></c><c t="inlineStr"><is><t>barcode</t></is></c></row>',
      ),
    )
    for (let i = 0; i < megabytes; i++) push(megabyte)
    push(encode('</sheetData></worksheet>'))
  })
}

const SHEET = 'xl/worksheets/sheet1.xml'
const encode = (text: string) => new TextEncoder().encode(text)

async function workbookWithSheet(
  write: (push: (bytes: Uint8Array) => void) => void,
): Promise<Uint8Array<ArrayBuffer>> {
  const parts = unzipSync(await writeXlsx([['productName', 'barcode']]))
  const chunks: Uint8Array[] = []
  const zip = new Zip((error, data) => {
    if (error) throw error
    chunks.push(data)
  })
  for (const [name, data] of Object.entries(parts)) {
    const entry = new ZipDeflate(name, { level: 6 })
    zip.add(entry)
    if (name === SHEET) {
      write((bytes) => entry.push(bytes))
      entry.push(new Uint8Array(), true)
    } else entry.push(data, true)
  }
  zip.end()
  return concatBytes(chunks)
}

/**
 * A copy of `workbook` whose central directory says its first sheet unpacks to `bytes` (fflate's
 * streamed entries carry their sizes there, and in a data descriptor after the data; the local
 * header says 0): a lie about its size, the rest unchanged.
 */
export function sheetDeclaring(workbook: Uint8Array, bytes: number): Uint8Array<ArrayBuffer> {
  const archive = workbook.slice()
  const view = new DataView(archive.buffer)
  const wanted = encode(SHEET)
  for (let at = 0; at + 46 < archive.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue
    const length = view.getUint16(at + 28, true)
    const entryName = archive.subarray(at + 46, at + 46 + length)
    if (length === wanted.length && entryName.every((byte, i) => byte === wanted[i])) {
      view.setUint32(at + 24, bytes, true)
      return archive
    }
  }
  throw new Error(`no central directory entry for ${SHEET}`)
}

/**
 * Counts what every DecompressionStream made while `read` runs hands out, by wrapping the
 * platform's own class: how far an inflation went before it was stopped.
 */
export async function inflatedWhile<T>(
  read: () => Promise<T>,
): Promise<{ inflated: number; result: PromiseSettledResult<T> }> {
  const Platform = globalThis.DecompressionStream
  let inflated = 0
  // A constructor that returns the platform's stream with a counter on its way out.
  function Counting(format: ConstructorParameters<typeof DecompressionStream>[0]) {
    const real = new Platform(format)
    const counter = new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
      transform(chunk, controller) {
        inflated += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    return { writable: real.writable, readable: real.readable.pipeThrough(counter) }
  }
  globalThis.DecompressionStream = Counting as unknown as typeof DecompressionStream
  try {
    const [result] = await Promise.allSettled([read()])
    return { inflated, result: result! }
  } finally {
    globalThis.DecompressionStream = Platform
  }
}
