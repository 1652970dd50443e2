import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '#node/sandbox/server.ts'
import { postApp, postSkus, sandboxFor, TOKEN } from './sandbox-client.ts'

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-sandbox-store-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

describe('sandbox store file', () => {
  it('what was received survives a restart', async () => {
    const storeFile = join(scratch, 'restart', 'received.json')
    const first = await sandboxFor({ storeFile })
    expect((await postSkus(first)).status).toBe(201)
    expect((await postApp(first)).status).toBe(201)
    const before = first.received()
    await first.close()

    const second = await sandboxFor({ storeFile })
    expect(second.received()).toEqual(before)
    expect((await postSkus(second)).status).toBe(201)
    expect(second.received().skus).toHaveLength(4)
  })

  it('appends one line a request instead of rewriting the file, and leaves no temporary file', async () => {
    const folder = join(scratch, 'append')
    const storeFile = join(folder, 'received.json')
    const sandbox = await sandboxFor({ storeFile })
    await postSkus(sandbox)
    const first = await readFile(storeFile, 'utf8')
    await Promise.all([postSkus(sandbox), postApp(sandbox)])
    await sandbox.close()
    expect(await readdir(folder)).toEqual(['received.json'])
    const text = await readFile(storeFile, 'utf8')
    // What was written first is still there, byte for byte: later requests only added lines.
    expect(text.startsWith(first)).toBe(true)
    const [header, ...lines] = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown[]>)
    // A store starts with its header, written with its first entry.
    expect(first.split('\n')[0]).toBe('{"format":2}')
    expect(header).toEqual({ format: 2 })
    expect(lines).toHaveLength(3)
    expect(lines.filter((line) => 'skus' in line).flatMap((line) => line.skus)).toHaveLength(4)
    expect(lines.filter((line) => 'app' in line)).toHaveLength(1)
  })

  it('clearReceived empties the file too', async () => {
    const storeFile = join(scratch, 'clear.json')
    const sandbox = await sandboxFor({ storeFile })
    await postSkus(sandbox)
    await sandbox.clearReceived()
    await sandbox.close()
    expect((await sandboxFor({ storeFile })).received()).toEqual({ skus: [], apps: [] })
  })

  it('keeps within its size by dropping the oldest entries, and says so', async () => {
    const storeFile = join(scratch, 'bounded.json')
    const sandbox = await sandboxFor({ storeFile, maxStoreBytes: 8 * 1024 })
    for (let i = 0; i < 12; i++) expect((await postSkus(sandbox)).status).toBe(201)
    const received = sandbox.received()
    expect(received.skus.length).toBeLessThan(24)
    expect(received.dropped?.skus).toBe(24 - received.skus.length)
    expect(received.dropped?.message).toMatch(
      /^The store keeps at most 8 KB: the oldest \d+ SKUs and 0 apps were dropped\.$/,
    )
    // The newest batch is always kept, and the file stays within the limit.
    const last = (await (await fetch(`${sandbox.url}/__sandbox/received`)).json()) as typeof received
    expect(last).toEqual(received)
    await sandbox.close()
    expect((await stat(storeFile)).size).toBeLessThanOrEqual(8 * 1024)
    expect((await sandboxFor({ storeFile, maxStoreBytes: 8 * 1024 })).received()).toEqual(received)
  })

  it('a request cut off mid-write by a crash loses only that request', async () => {
    const storeFile = join(scratch, 'torn.json')
    const first = await sandboxFor({ storeFile })
    await postSkus(first)
    await first.close()
    const kept = first.received()
    await appendFile(storeFile, '{"skus":[{"id":"half')
    const second = await sandboxFor({ storeFile })
    expect(second.received()).toEqual(kept)
    expect(second.notice).toBeUndefined()
    await postSkus(second)
    await second.close()
    expect((await sandboxFor({ storeFile })).received().skus).toHaveLength(4)
  })

  it('reads a store written by an earlier version (one JSON document) and goes on in lines', async () => {
    const storeFile = join(scratch, 'format-1.json')
    const sku = { id: 'a', receivedAt: '2026-01-01T00:00:00.000Z', batchId: 'b', sku: { barcode: '1' } }
    await writeFile(storeFile, JSON.stringify({ format: 1, skus: [sku], apps: [] }, null, 2) + '\n')
    const sandbox = await sandboxFor({ storeFile })
    expect(sandbox.received()).toEqual({ skus: [sku], apps: [] })
    await postSkus(sandbox)
    await sandbox.close()
    expect((await sandboxFor({ storeFile })).received().skus).toHaveLength(3)
  })

  it.each([
    ['damaged', '{"format":2}\n{"skus":[]}\nnot json\n{"skus":[]}\n', /line 3 is not JSON/],
    [
      'not a store',
      '{"hello": "world"}\n',
      /it is not a sandbox store: its first line is neither the store's header nor a whole entry/,
    ],
    [
      'one line of something else',
      '{ not json',
      /it is not a sandbox store: its first line is neither the store's header nor a whole entry/,
    ],
    [
      'too big',
      '{"format":2}\n' + `{"skus":[${'"x",'.repeat(3000)}"x"]}\n`,
      /it is 1[0-9.]+ KB, over the 4 KB the store may hold/,
    ],
  ])(
    'the app’s own store, %s, is set aside and the sandbox starts empty with a notice',
    async (_case, text, reason) => {
      const folder = join(scratch, `aside-${_case.replace(/ /g, '-')}`)
      await mkdir(folder)
      const storeFile = join(folder, 'received.json')
      await writeFile(storeFile, text)
      const sandbox = await sandboxFor({ storeFile, unusableStore: 'set-aside', maxStoreBytes: 4096 })
      expect(sandbox.received()).toEqual({ skus: [], apps: [] })
      expect(sandbox.notice).toMatch(reason)
      const files = await readdir(folder)
      const aside = files.find((name) => name.startsWith('received.json.set-aside-'))
      expect(sandbox.notice).toContain(`the old file was kept as ${join(folder, aside!)}`)
      expect(await readFile(join(folder, aside!), 'utf8')).toBe(text)
      expect((await postSkus(sandbox)).status).toBe(201)
    },
  )

  it('a file that is not a store stops the start instead of being overwritten', async () => {
    const storeFile = join(scratch, 'not-a-store.json')
    await writeFile(storeFile, '{"hello": "world"}')
    await expect(startSandbox({ token: TOKEN, storeFile })).rejects.toThrow(
      `The sandbox store ${storeFile} cannot be used: it is not a sandbox store: its first line is neither the store's header nor a whole entry`,
    )
    await writeFile(storeFile, '{\n"skus": [')
    await expect(startSandbox({ token: TOKEN, storeFile })).rejects.toThrow(/cannot be used: it is not JSON/)
    expect(await readFile(storeFile, 'utf8')).toBe('{\n"skus": [')
  })

  // One line of something else with no newline once read as a store whose only line was torn by
  // a crash, and was cut off: only a file that starts with the store's header is a store.
  it.each([
    ['one line that is not JSON, without a newline', '{ not json'],
    ['one line that is not JSON', 'not json at all\n'],
    ['a torn entry without the header', '{"skus":[{"id":"a"'],
    ['an entry without its newline and no header', '{"skus":[]}'],
    ['a blank first line', '\n{"format":2}\n'],
  ])('%s is not a store: refused by name and left as it is', async (_case, text) => {
    const storeFile = join(scratch, `headerless-${_case.replace(/\W+/g, '-')}.json`)
    await writeFile(storeFile, text)
    await expect(startSandbox({ token: TOKEN, storeFile })).rejects.toThrow(
      `The sandbox store ${storeFile} cannot be used: it is not a sandbox store: its first line is neither the store's header nor a whole entry`,
    )
    expect(await readFile(storeFile, 'utf8')).toBe(text)
  })

  it('a store begun before the header was written, starting with a whole entry, is still read', async () => {
    const sku = { id: 'a', receivedAt: '2026-01-01T00:00:00.000Z', batchId: 'b', sku: { barcode: '1' } }
    const storeFile = join(scratch, 'begun-without-header.json')
    const text = `{"skus":[${JSON.stringify(sku)}]}\n{"app":{"id":"p","receivedAt":"2026-01-01T00:00:00.000Z","app":{}}}\n`
    await writeFile(storeFile, text)
    const sandbox = await sandboxFor({ storeFile })
    expect(sandbox.received().skus).toEqual([sku])
    expect(sandbox.received().apps).toHaveLength(1)
    expect(await readFile(storeFile, 'utf8')).toBe(text)
  })

  it('after the header, a torn last line and a last line without its newline are still repaired', async () => {
    const sku = { id: 'a', receivedAt: '2026-01-01T00:00:00.000Z', batchId: 'b', sku: { barcode: '1' } }
    const torn = join(scratch, 'torn-after-header.json')
    await writeFile(torn, `{"format":2}\n{"skus":[${JSON.stringify(sku)}]}\n{"skus":[{"id":"ha`)
    const first = await sandboxFor({ storeFile: torn })
    expect(first.received()).toEqual({ skus: [sku], apps: [] })
    expect(await readFile(torn, 'utf8')).toBe(`{"format":2}\n{"skus":[${JSON.stringify(sku)}]}\n`)

    const unended = join(scratch, 'unended.json')
    await writeFile(unended, `{"format":2}\n{"skus":[${JSON.stringify(sku)}]}`)
    const second = await sandboxFor({ storeFile: unended })
    await postSkus(second)
    await second.close()
    expect((await sandboxFor({ storeFile: unended })).received().skus).toHaveLength(3)

    // A header torn before its newline is all the file holds: nothing says what wrote it.
    const headerOnly = join(scratch, 'header-only.json')
    await writeFile(headerOnly, '{"format":2}')
    expect((await sandboxFor({ storeFile: headerOnly })).received()).toEqual({ skus: [], apps: [] })
  })

  it('a store that cannot be written answers 500 and keeps nothing', async () => {
    const folder = join(scratch, 'vanishing')
    const sandbox = await sandboxFor({ storeFile: join(folder, 'received.json') })
    // Once the sandbox runs, its folder turns into a file: no write can succeed, even as root.
    await writeFile(folder, 'a file where a folder should be')
    const response = await postSkus(sandbox)
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ message: expect.stringMatching(/^The sandbox failed/) })
    expect(sandbox.received().skus).toEqual([])
    expect(sandbox.requests()).toMatchObject([{ status: 500, stored: false }])
  })
})
