import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SheetFileError } from '#shared/sheet/errors.ts'
import { MAX_XLSX_UNPACKED_BYTES } from '#shared/sheet/limits.ts'
import { unpackedSize } from '#shared/sheet/unpacked-size.ts'
import { readXlsx, writeXlsx } from '#shared/sheet/xlsx.ts'
import { runCli } from '../cli/run-cli.ts'
import { inflatedWhile, sheetDeclaring, xlsxBomb } from './xlsx-bombs.ts'

// Workbooks that unpack to far more than they weigh (issue #32): 160 MB of one XML row repeated,
// deflated to about 570 KB, once with its entries saying so and once with its sheet's entry saying
// 2 KB. Each is refused before read-excel-file unpacks anything, by the one reader the import's
// worker and the CLI share (readXlsx), naming the limit; the lying one is inflated only up to it.

const LIMIT = '100 MB'
const ADVICE = 'Save it as CSV UTF-8, which is read as it streams, whatever its size.'
const DECLARED = `The workbook unpacks to 160 MB, and a workbook is read whole, up to ${LIMIT} unpacked. ${ADVICE}`
const LYING = `The workbook unpacks to more than ${LIMIT}, though its entries say 5.2 KB (it is damaged, or made to mislead), and a workbook is read whole, up to ${LIMIT} unpacked. ${ADVICE}`

let bomb: Uint8Array
let lying: Uint8Array
let scratch = ''
beforeAll(async () => {
  bomb = await xlsxBomb(160)
  lying = sheetDeclaring(bomb, 2048)
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-xlsx-bombs-'))
  await writeFile(join(scratch, 'bomb.xlsx'), bomb)
  await writeFile(join(scratch, 'lying.xlsx'), lying)
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

describe('a workbook that unpacks to more than the limit', () => {
  it('is small: under a megabyte for 160 MB of sheet', () => {
    expect(bomb.length).toBeLessThan(1024 * 1024)
    expect(lying.length).toBe(bomb.length)
  })

  it('whose entries say so: refused from what they declare, nothing inflated', async () => {
    const { inflated, result } = await inflatedWhile(() => readXlsx(bomb))
    expect(result).toMatchObject({ status: 'rejected', reason: { code: 'too-large', message: DECLARED } })
    expect((result as PromiseRejectedResult).reason).toBeInstanceOf(SheetFileError)
    expect(inflated).toBe(0)
  })

  it('whose entries lie: refused once it has inflated past the limit, and inflated no further', async () => {
    const { inflated, result } = await inflatedWhile(() => readXlsx(lying))
    expect(result).toMatchObject({ status: 'rejected', reason: { code: 'too-large', message: LYING } })
    // Up to the limit, and past it by no more than the stretch in hand: not the 160 MB it holds.
    expect(inflated).toBeGreaterThan(MAX_XLSX_UNPACKED_BYTES)
    expect(inflated).toBeLessThan(MAX_XLSX_UNPACKED_BYTES + 4 * 1024 * 1024)
  })

  it('a workbook within the limit is measured whole and read as before', async () => {
    const bytes = await writeXlsx([
      ['productName', 'barcode'],
      ...Array.from({ length: 2000 }, (_, i) => ['Aviator', String(i)]),
    ])
    const size = await unpackedSize(new Uint8Array(bytes), MAX_XLSX_UNPACKED_BYTES)
    expect(size).toMatchObject({ within: true })
    expect(size.within && size.bytes).toBeGreaterThan(bytes.length)
    expect((await readXlsx(bytes)).rows).toHaveLength(2000)
  })

  it('a zip whose directory does not hold together is said to be damaged', async () => {
    const bytes = await writeXlsx([['productName'], ['Aviator']])
    const cut = bytes.slice(0, bytes.length - 30)
    await expect(readXlsx(cut)).rejects.toThrow(
      'The workbook cannot be read: it is damaged, cut short or not an XLSX file (it has no zip directory).',
    )
  })
})

describe('the CLI refuses it, naming the file and the limit', () => {
  it('validate: exit 2, and the reason on stderr', async () => {
    for (const [name, reason] of [
      ['bomb.xlsx', DECLARED],
      ['lying.xlsx', LYING],
    ] as const) {
      const file = join(scratch, name)
      const run = await runCli(['validate', file])
      expect(run).toEqual({ code: 2, stdout: '', stderr: `catalog-desk: Cannot read ${file}: ${reason}\n` })
    }
  })

  it('convert: exit 2, nothing written', async () => {
    const file = join(scratch, 'lying.xlsx')
    const out = join(scratch, 'out.json')
    const run = await runCli(['convert', file, out])
    expect(run).toEqual({ code: 2, stdout: '', stderr: `catalog-desk: Cannot read ${file}: ${LYING}\n` })
    expect(existsSync(out)).toBe(false)
  })
})
