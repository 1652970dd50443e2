import { appendFile, copyFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { barcodesIn, pushHarness } from './push-harness.ts'

/** The journal: a re-run resumes where the last one stopped, and never sends again what may have been processed. */

const TOKEN = 'push-resume-token-8c2a'
const harness = pushHarness({ token: TOKEN, barcodePrefix: 'R' })
const { sandboxFor, push, skus } = harness

async function until(check: () => boolean | Promise<boolean>, what: string) {
  await vi.waitFor(
    async () => {
      if (!(await check())) throw new Error(`${what} did not happen in time`)
    },
    { timeout: 5_000 },
  )
}

const journalLines = async (path: string) =>
  (await readFile(path, 'utf8').catch(() => '')).split('\n').filter(Boolean).length

describe('push: resuming from the journal', () => {
  it('Ctrl-C: the request in flight finishes and is journaled; the re-run sends only the rest', async () => {
    // Every request waits 80 ms at the sandbox, so the interruption falls while one is in flight.
    const sandbox = await sandboxFor({ faults: [{ kind: 'latency', delayMs: 80, times: null }] })
    await writeFile(join(harness.dir(), 'skus.json'), JSON.stringify(skus(10)))
    const args = [
      'skus.json',
      '--base-url',
      sandbox.url,
      '--token-env',
      'PUSH_TOKEN',
      '--batch-size',
      '2',
      '--json',
    ]
    const interrupt = new AbortController()
    const first = push(args, { signal: interrupt.signal })
    await until(() => sandbox.requests().length === 2, 'the second request')
    interrupt.abort()
    const stopped = await first
    expect(stopped.code).toBe(1)
    const json = JSON.parse(stopped.stdout) as Record<string, unknown>
    // The second request was in flight when Ctrl-C came: it finished and was recorded.
    expect(json).toMatchObject({ synced: 4, queued: 6, status: 'cancelled' })
    expect(barcodesIn(sandbox)).toHaveLength(4)

    const resumed = await push(args)
    expect(resumed.code).toBe(0)
    expect(resumed.stderr).toMatch(/Journal of http:\/\/127\.0\.0\.1:\d+: .* \(4 SKUs sent there before\)/)
    expect(JSON.parse(resumed.stdout)).toMatchObject({ synced: 10, status: 'finished' })
    expect(barcodesIn(sandbox)).toEqual(skus(10).map((sku) => sku.barcode))
  })

  it('a crash mid-request: that batch becomes unknown and is never resent; the rest is sent', async () => {
    const sandbox = await sandboxFor({ faults: [{ kind: 'latency', delayMs: 150, times: null }] })
    await writeFile(join(harness.dir(), 'skus.json'), JSON.stringify(skus(6)))
    const journal = harness.journalOf(sandbox.url)
    const args = [
      'skus.json',
      '--base-url',
      sandbox.url,
      '--token-env',
      'PUSH_TOKEN',
      '--batch-size',
      '2',
      '--json',
    ]
    const interrupt = new AbortController()
    const first = push(args, { signal: interrupt.signal })
    // header, begin 1, end 1, begin 2: the journal as a crash during request 2 would leave it.
    await until(async () => (await journalLines(journal)) === 4, 'the second request to begin')
    await copyFile(journal, join(harness.dir(), 'crashed.jsonl'))
    interrupt.abort()
    await first
    await copyFile(join(harness.dir(), 'crashed.jsonl'), journal)
    // A torn last line, as a crash while writing leaves, is ignored.
    await appendFile(journal, '{"type":"begin","requ')

    const resumed = await push([...args, '--report', 'report.json'])
    expect(resumed.code).toBe(1)
    expect(JSON.parse(resumed.stdout)).toMatchObject({ synced: 4, unknown: 2, status: 'finished' })
    expect(resumed.stderr).toMatch(/2 SKUs left sending by an earlier run marked unknown/)
    const report = JSON.parse(await readFile(join(harness.dir(), 'report.json'), 'utf8')) as {
      state: string
    }[]
    expect(report.map((entry) => entry.state)).toEqual([
      'synced',
      'synced',
      'unknown',
      'unknown',
      'synced',
      'synced',
    ])
    // R-2 and R-3 reached the sandbox in the first run; they were not sent again.
    const received = barcodesIn(sandbox)
    expect(new Set(received).size).toBe(received.length)
    expect(received.sort()).toEqual(['R-0', 'R-1', 'R-2', 'R-3', 'R-4', 'R-5'])

    // The torn line was cut off before the resumed run appended: every line is whole, and a third
    // run reads the journal, sends nothing and says the same.
    const text = await readFile(journal, 'utf8')
    expect(text.endsWith('\n')).toBe(true)
    for (const line of text.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow()
    const third = await push(args)
    expect(JSON.parse(third.stdout)).toMatchObject({ synced: 4, unknown: 2 })
    expect(barcodesIn(sandbox)).toHaveLength(6)
  })

  it('one journal a destination: another file’s SKUs go to the same journal, another address’s journal is refused', async () => {
    const sandbox = await sandboxFor()
    await writeFile(join(harness.dir(), 'a.json'), JSON.stringify(skus(2, 'A')))
    await writeFile(join(harness.dir(), 'b.json'), JSON.stringify([...skus(2, 'A'), ...skus(2, 'B')]))
    const base = ['--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--journal', 'shared.jsonl']
    expect((await push(['a.json', ...base])).code).toBe(0)
    // The barcodes it sent are known whatever file they come from: only B's are created.
    const other = await push(['b.json', ...base, '--json'])
    expect(other.code).toBe(0)
    expect(JSON.parse(other.stdout)).toMatchObject({ synced: 4, created: { synced: 2 }, unchanged: 2 })
    const moved = await push([
      'a.json',
      '--base-url',
      'http://localhost:1',
      '--token-env',
      'PUSH_TOKEN',
      '--journal',
      'shared.jsonl',
    ])
    expect(moved.code).toBe(2)
    expect(moved.stderr).toMatch(/journal of a push to http:\/\/127\.0\.0\.1:\d+, not http:\/\/localhost:1/)
    expect(barcodesIn(sandbox)).toEqual(['A-0', 'A-1', 'B-0', 'B-1'])
  })

  it('an address in another spelling is the same journal; this computer under another name waits for --journal', async () => {
    const sandbox = await sandboxFor()
    await writeFile(join(harness.dir(), 'a.json'), JSON.stringify(skus(2, 'A')))
    const port = new URL(sandbox.url).port
    const token = ['--token-env', 'PUSH_TOKEN', '--json']
    const first = await push(['a.json', '--base-url', `HTTP://127.0.0.1:${port}/`, ...token])
    expect(JSON.parse(first.stdout)).toMatchObject({ created: { synced: 2 } })
    // The URL standard's spelling of the same address: its journal, nothing created again.
    const again = await push(['a.json', '--base-url', `http://127.0.0.1:${port}`, ...token])
    expect(again.code).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({ synced: 2, unchanged: 2 })
    // localhost: this computer too, most likely the same service, with no journal yet. A push
    // stops before anything is sent and names both journals; a dry run says so and goes on.
    const local = ['a.json', '--base-url', `http://localhost:${port}`, '--token-env', 'PUSH_TOKEN']
    const refused = await push(local)
    expect(refused.code).toBe(2)
    const known = harness.journalOf(sandbox.url)
    expect(refused.stderr).toContain(
      `this computer under another name has one that records SKUs created there, or that may be: ${known} (http://127.0.0.1:${port}). If that is this service, a push would create them again. Push with --journal naming it to use it, or with --journal ${harness.journalOf(`http://localhost:${port}`)} to keep one of this address's own.`,
    )
    const dryRun = await push(['a.json', '--base-url', `http://localhost:${port}`, '--dry-run'])
    expect(dryRun.code).toBe(0)
    expect(dryRun.stderr).toContain(`${known} (http://127.0.0.1:${port}). If that is this service`)
    // Named, that journal is taken for this address: nothing is created again.
    const named = await push([...local, '--journal', known, '--json'])
    expect(named.code).toBe(0)
    expect(JSON.parse(named.stdout)).toMatchObject({ synced: 2, unchanged: 2 })
    expect(barcodesIn(sandbox)).toEqual(['A-0', 'A-1'])
  })

  it('another name’s journal stops a push only when it is this scheme’s and records SKUs that may stand there', async () => {
    const sandbox = await sandboxFor()
    await writeFile(join(harness.dir(), 'a.json'), JSON.stringify(skus(2, 'A')))
    const port = new URL(sandbox.url).port
    const local = ['a.json', '--base-url', `http://localhost:${port}`, '--token-env', 'PUSH_TOKEN', '--json']
    // A first push through 127.0.0.1 whose token was refused: nothing was created, nothing stops.
    const refused = await push(['a.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN'], {
      env: { PUSH_TOKEN: 'not-the-token', CATALOG_DESK_DATA_DIR: harness.dataDir() },
    })
    expect(refused.code).toBe(1)
    expect(barcodesIn(sandbox)).toEqual([])
    const sent = await push(local)
    expect(sent.code).toBe(0)
    expect(JSON.parse(sent.stdout)).toMatchObject({ created: { synced: 2 } })
    // The same file name for https on that port is another service's journal: it stops nothing.
    const other = await sandboxFor()
    const otherPort = new URL(other.url).port
    const journal = harness.journalOf(other.url)
    await push(['a.json', '--base-url', other.url, '--token-env', 'PUSH_TOKEN'])
    const lines = (await readFile(journal, 'utf8')).split('\n')
    lines[0] = lines[0]!.replace(`http://127.0.0.1:${otherPort}`, `https://127.0.0.1:${otherPort}`)
    await writeFile(journal, lines.join('\n'))
    const overHttp = await push(['a.json', '--base-url', `http://localhost:${otherPort}`, '--dry-run'])
    expect(overHttp.code).toBe(0)
    expect(overHttp.stderr).not.toContain('this computer under another name')
  })

  it('--journal naming a file that is not a journal: exit 2, the file untouched, nothing sent', async () => {
    const sandbox = await sandboxFor()
    await writeFile(join(harness.dir(), 'skus.json'), JSON.stringify(skus(2)))
    await writeFile(join(harness.dir(), 'notes.txt'), 'call the supplier on monday')
    const base = ['skus.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN']
    const run = await push([...base, '--journal', 'notes.txt'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/notes\.txt is not a push journal: it holds no whole journal line/)
    expect(await readFile(join(harness.dir(), 'notes.txt'), 'utf8')).toBe('call the supplier on monday')
    expect(barcodesIn(sandbox)).toEqual([])
    // An empty file is a journal not yet begun.
    await writeFile(join(harness.dir(), 'empty.jsonl'), '')
    expect((await push([...base, '--journal', 'empty.jsonl'])).code).toBe(0)
    expect(barcodesIn(sandbox)).toEqual(['R-0', 'R-1'])
  })

  it('a finished push run again sends nothing', async () => {
    const sandbox = await sandboxFor()
    await writeFile(join(harness.dir(), 'skus.json'), JSON.stringify(skus(3)))
    const args = ['skus.json', '--base-url', sandbox.url, '--token-env', 'PUSH_TOKEN', '--json']
    expect((await push(args)).code).toBe(0)
    const again = await push(args)
    expect(again.code).toBe(0)
    expect(JSON.parse(again.stdout)).toMatchObject({ synced: 3 })
    expect(sandbox.requests()).toHaveLength(1)
  })
})
