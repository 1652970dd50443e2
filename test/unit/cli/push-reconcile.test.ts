import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { readXlsx } from '#shared/sheet/xlsx.ts'
import { barcodesIn, pushHarness } from './push-harness.ts'

/**
 * Reconciling with the platform from the CLI (issue #15): the service has no read endpoint, so
 * `--unresolved` writes what is left unknown or failed to be looked up, and `--platform-has` takes
 * the barcodes found there, marks those created and sends the rest again, recorded in the journal.
 */

const TOKEN = 'push-reconcile-token-93b7'
const harness = pushHarness({ token: TOKEN, barcodePrefix: 'R' })
const { sandboxFor, push, skus } = harness

const path = (name: string) => join(harness.dir(), name)

const journalLines = async (file: string) =>
  (await readFile(file, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string } & Record<string, unknown>)

describe('push: reconciling unknown and failed SKUs with the platform', () => {
  it('--unresolved lists them; --platform-has marks the listed created and sends the rest: each barcode there once', async () => {
    // Batch 1 goes through; batch 2 is processed and its answer lost (unknown); batch 3 meets a
    // 500 before it is processed (failed: nothing stored).
    const sandbox = await sandboxFor({
      faults: [
        { kind: 'latency', delayMs: 0 },
        { kind: 'reset', stage: 'after' },
        { kind: 'server-error', stage: 'before' },
      ],
    })
    const list = skus(6)
    list[3]!.productName = '=HYPERLINK("http://evil.example")'
    await writeFile(path('skus.json'), JSON.stringify(list))
    const base = ['skus.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--batch-size', '2']

    const first = await push([...base, '--json', '--unresolved', 'unresolved.csv'])
    expect(first.code).toBe(1)
    expect(JSON.parse(first.stdout)).toMatchObject({ synced: 2, unknown: 2, failed: 2, held: 0 })
    expect(first.stderr).toContain('4 SKUs left unknown or failed, listed in unresolved.csv.')
    expect(barcodesIn(sandbox)).toEqual(['R-0', 'R-1', 'R-2', 'R-3'])

    const csv = await readFile(path('unresolved.csv'), 'utf8')
    // Spreadsheet-safe as the app's exports: a byte order mark, CRLF, formulas escaped.
    expect(csv.startsWith('\uFEFFindex,barcode,product name,state,message,request id,time sent\r\n')).toBe(
      true,
    )
    expect(csv).toContain(`3,R-3,"'=HYPERLINK(""http://evil.example"")",unknown,`)
    const { headers, rows } = parseCsvText(csv)
    expect(headers).toEqual([
      'index',
      'barcode',
      'product name',
      'state',
      'message',
      'request id',
      'time sent',
    ])
    expect(rows.map((row) => [row[0], row[1], row[3]])).toEqual([
      ['2', 'R-2', 'unknown'],
      ['3', 'R-3', 'unknown'],
      ['4', 'R-4', 'failed'],
      ['5', 'R-5', 'failed'],
    ])
    for (const row of rows) {
      expect(row[2]).toBeTruthy()
      expect(row[4]).toMatch(/reset|HTTP 500/)
      expect(row[5]).toMatch(/\/\d+$/)
      expect(new Date(row[6]!).toISOString()).toBe(row[6])
    }
    // The two of one batch share its request.
    expect(rows[0]![5]).toBe(rows[1]![5])
    expect(rows[2]![5]).not.toBe(rows[0]![5])

    // Asked for again, as XLSX, by a run that sends nothing: the same rows, barcodes as text.
    const listOnly = await push([...base, '--unresolved', 'unresolved.xlsx'])
    expect(listOnly.code).toBe(1)
    expect(sandbox.requests().filter((entry) => entry.endpoint === 'skus')).toHaveLength(3)
    const sheet = await readXlsx(new Uint8Array(await readFile(path('unresolved.xlsx'))))
    expect(sheet.headers).toEqual(headers)
    expect(sheet.rows.map((row) => row.slice(0, 5))).toEqual(rows.map((row) => row.slice(0, 5)))

    // The person looks the barcodes up on the platform: it has what the sandbox received.
    await writeFile(path('platform.txt'), barcodesIn(sandbox).join('\n') + '\n')
    const settled = await push([
      ...base,
      '--json',
      '--platform-has',
      'platform.txt',
      '--report',
      'report.json',
    ])
    expect(settled.stderr).toContain(
      "The platform's list platform.txt (4 barcodes): 2 marked created, 2 sent again, 2 barcodes on the list matched no unknown or failed SKU.",
    )
    expect(settled.code).toBe(0)
    expect(JSON.parse(settled.stdout)).toMatchObject({
      total: 6,
      synced: 6,
      unknown: 0,
      failed: 0,
      status: 'finished',
      platformList: { file: 'platform.txt', markedCreated: 2, sentAgain: 2, keptBack: 0, unmatched: 2 },
    })
    const received = barcodesIn(sandbox)
    expect([...received].sort()).toEqual(['R-0', 'R-1', 'R-2', 'R-3', 'R-4', 'R-5'])
    expect(new Set(received).size).toBe(received.length)
    const report = JSON.parse(await readFile(path('report.json'), 'utf8')) as {
      state: string
      message?: string
    }[]
    expect(report.map((entry) => entry.state)).toEqual(Array(6).fill('synced'))
    expect(report[2]!.message).toBe("Marked as created: on the platform's list platform.txt")

    // The decision is in the journal, before the requests it caused.
    const lines = await journalLines(harness.journalOf(sandbox.url))
    const decide = lines.findIndex((line) => line.type === 'decide')
    expect(lines[decide]).toMatchObject({
      source: 'platform.txt',
      created: ['R-2', 'R-3'],
      resend: ['R-4', 'R-5'],
      message: "Marked as created: on the platform's list platform.txt",
    })
    expect(lines.slice(decide + 1).map((line) => line.type)).toEqual(['begin', 'end'])

    // A re-run knows: every SKU synced, nothing sent, and the list of the unresolved is empty.
    const after = await push([...base, '--json', '--unresolved', 'unresolved.csv'])
    expect(after.code).toBe(0)
    expect(JSON.parse(after.stdout)).toMatchObject({ synced: 6 })
    expect(parseCsvText(await readFile(path('unresolved.csv'), 'utf8')).rows).toEqual([])
    expect(barcodesIn(sandbox)).toHaveLength(6)
  })

  it('the unresolved sheet read back as the platform’s list marks exactly its rows created; leading zeros stay', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'reset', stage: 'after' }] })
    const list = skus(2).map((sku, i) => ({ ...sku, barcode: `00${i}7` }))
    await writeFile(path('zeros.json'), JSON.stringify(list))
    const base = ['zeros.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json']
    expect(JSON.parse((await push([...base, '--unresolved', 'check.csv'])).stdout)).toMatchObject({
      unknown: 2,
    })
    // Found on the platform: both (the sandbox processed them); the sheet goes back as it is.
    const run = await push([...base, '--platform-has', 'check.csv'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({
      synced: 2,
      created: { synced: 2 },
      marked: 2,
      platformList: { markedCreated: 2, sentAgain: 0, unmatched: 0 },
    })
    expect(barcodesIn(sandbox)).toEqual(['0007', '0017'])
  })

  it('says how many of those created were only marked by the platform’s list, nothing sent', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'reset', stage: 'after' }] })
    await writeFile(path('two.json'), JSON.stringify(skus(2)))
    const base = ['two.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN']
    await push([...base, '--unresolved', 'check.csv'])
    const requests = sandbox.requests().length
    const run = await push([...base, '--platform-has', 'check.csv', '--report', 'marked.json'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain("Created 2 (2 of them marked by the platform's list, not sent), updated 0")
    expect(sandbox.requests()).toHaveLength(requests)
    const report = JSON.parse(await readFile(path('marked.json'), 'utf8')) as { marked?: true }[]
    expect(report.map((entry) => entry.marked)).toEqual([true, true])
  })

  it('a queued SKU whose barcode is on the platform’s list is held as created there', async () => {
    const sandbox = await sandboxFor()
    await writeFile(path('fresh.json'), JSON.stringify(skus(3)))
    await writeFile(path('has.csv'), 'Barcode,Name\nR-1,made in the app\n')
    const run = await push([
      'fresh.json',
      '--base-url',
      sandbox.url,
      '--token-env',
      'PUSH_TOKEN',
      '--platform-has',
      'has.csv',
      '--json',
    ])
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({ synced: 2, held: 1, platformList: { unmatched: 1 } })
    expect(run.stderr).toContain(
      "[1] R-1: Barcode R-1 was already on the platform's list has.csv: sending it would create a second copy",
    )
    expect(barcodesIn(sandbox)).toEqual(['R-0', 'R-2'])
  })

  it('failed SKUs not on the list that the gates hold are not sent again; they stay failed', async () => {
    // A 500 before processing: the platform has neither, as the (empty) list says.
    const sandbox = await sandboxFor({ faults: [{ kind: 'server-error', stage: 'before' }] })
    const [a, b] = skus(2)
    delete a!.brand
    await writeFile(path('kept.json'), JSON.stringify([a, b]))
    await writeFile(path('none.txt'), 'barcode\n')
    const base = ['kept.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json']
    expect(JSON.parse((await push(base)).stdout)).toMatchObject({ failed: 2 })
    // The list says the platform has neither; with a brand now required, R-0 is not sent again.
    const run = await push([...base, '--platform-has', 'none.txt', '--require', 'brand'])
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({
      synced: 1,
      failed: 1,
      held: 0,
      platformList: { markedCreated: 0, sentAgain: 1, keptBack: 1, unmatched: 0 },
    })
    expect(run.stderr).toContain(
      '1 unknown or failed SKU not on the list is held back, not sent again (it stays as it was):\n  [0] R-0: Brand is empty; this push requires it',
    )
    expect(barcodesIn(sandbox)).toEqual(['R-1'])
  })

  it.each([
    [
      'a file that is not there',
      undefined,
      /Cannot read the platform's list missing\.txt: no such file\. Nothing was changed\./,
    ],
    ['JSON', '["R-1"]', /The platform's list list\.txt is not a list of barcodes: It is JSON/],
    ['a sheet without a barcode column', 'name,price\nA,1\n', /none is headed "barcode"/],
    ['a shortened number', '8.90123E+12\n', /shortened to a number/],
  ])('--platform-has with %s: exit 2, the journal unchanged, nothing sent', async (_, content, message) => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'reset', stage: 'after' }] })
    await writeFile(path('skus.json'), JSON.stringify(skus(2)))
    const base = ['skus.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN']
    await push(base)
    const journal = await readFile(harness.journalOf(sandbox.url), 'utf8')
    const requests = sandbox.requests().length
    const name = content === undefined ? 'missing.txt' : 'list.txt'
    if (content !== undefined) await writeFile(path(name), content)
    const run = await push([...base, '--platform-has', name])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(message)
    expect(await readFile(harness.journalOf(sandbox.url), 'utf8')).toBe(journal)
    expect(sandbox.requests()).toHaveLength(requests)
  })

  it.each([
    [['--unresolved', 'out.txt'], /--unresolved out\.txt: name a \.csv or \.xlsx file/],
    [
      ['--unresolved', 'skus.json.push-journal.csv', '--journal', 'skus.json.push-journal.csv'],
      /is the journal; write it elsewhere/,
    ],
    [['--unresolved', 'same.csv', '--report', 'same.csv'], /is the report; write it elsewhere/],
    [['--unresolved', 'has.csv', '--platform-has', 'has.csv'], /is the platform’s list; write it elsewhere/],
    [['--unresolved', 'nowhere/u.csv'], /its folder does not exist or cannot be written/],
  ])('%j is refused before anything is sent; exit 2', async (options, message) => {
    const sandbox = await sandboxFor()
    await writeFile(path('skus.json'), JSON.stringify(skus(1)))
    await writeFile(path('has.csv'), 'barcode\nX\n')
    const run = await push(['skus.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', ...options])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(message)
    expect(sandbox.requests()).toHaveLength(0)
  })
})
