import { beforeAll, describe, expect, it } from 'vitest'
import { readResults, readWorkbook } from '#renderer/features/import/read-sheet.ts'
import { MAX_XLSX_UNPACKED_BYTES } from '#shared/sheet/limits.ts'
import { automaticMapping } from '#shared/sheet/mapping.ts'
import { writeXlsx } from '#shared/sheet/xlsx.ts'
import { inflatedWhile, sheetDeclaring, xlsxBomb } from '../sheet/xlsx-bombs.ts'

// The import's worker reads a workbook with the CLI's reader (readXlsx): a workbook that unpacks
// to more than the limit is refused there too, before anything is unpacked whole, in words the
// import page shows after the file's name.

const REFUSED =
  'It could not be read as an Excel workbook: The workbook unpacks to more than 100 MB, though its entries say 5.2 KB (it is damaged, or made to mislead), and a workbook is read whole, up to 100 MB unpacked. Save it as CSV UTF-8, which is read as it streams, whatever its size.'

let lying: File
beforeAll(async () => {
  lying = new File([sheetDeclaring(await xlsxBomb(160), 2048)], 'catalogue.xlsx')
})

describe('the import’s reader and a workbook that unpacks to more than the limit', () => {
  it('refuses it for the dry run and the import alike, inflating no further than the limit', async () => {
    const head = await inflatedWhile(() => readWorkbook(lying))
    expect(head.result).toMatchObject({
      status: 'rejected',
      reason: { name: 'UnreadableFile', message: REFUSED },
    })
    expect(head.inflated).toBeLessThan(MAX_XLSX_UNPACKED_BYTES + 4 * 1024 * 1024)

    const rows: unknown[] = []
    const all = await inflatedWhile(() =>
      readResults(
        lying,
        'xlsx',
        automaticMapping(['productName', 'barcode']),
        new AbortController().signal,
        (results) => {
          rows.push(...results)
        },
      ),
    )
    expect(all.result).toMatchObject({ status: 'rejected', reason: { message: REFUSED } })
    expect(all.inflated).toBeLessThan(MAX_XLSX_UNPACKED_BYTES + 4 * 1024 * 1024)
    expect(rows).toEqual([])
  })

  it('reads a workbook within it', async () => {
    const file = new File(
      [
        new Uint8Array(
          await writeXlsx([
            ['productName', 'barcode'],
            ['Aviator', '4006381333931'],
          ]),
        ),
      ],
      'ok.xlsx',
    )
    expect(await readWorkbook(file)).toMatchObject({
      headers: ['productName', 'barcode'],
      rows: [['Aviator', '4006381333931']],
    })
  })
})
