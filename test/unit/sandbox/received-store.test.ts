import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '#node/sandbox/server.ts'
import { createSkus, postApp, postSkus, putSku, sandboxFor, TOKEN } from './sandbox-client.ts'

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
    expect(sandbox.received()).toEqual({ skus: [{ ...sku, updates: [] }], apps: [] })
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
    expect(sandbox.received().skus).toEqual([{ ...sku, updates: [] }])
    expect(sandbox.received().apps).toHaveLength(1)
    expect(await readFile(storeFile, 'utf8')).toBe(text)
  })

  it('after the header, a torn last line and a last line without its newline are still repaired', async () => {
    const sku = { id: 'a', receivedAt: '2026-01-01T00:00:00.000Z', batchId: 'b', sku: { barcode: '1' } }
    const torn = join(scratch, 'torn-after-header.json')
    await writeFile(torn, `{"format":2}\n{"skus":[${JSON.stringify(sku)}]}\n{"skus":[{"id":"ha`)
    const first = await sandboxFor({ storeFile: torn })
    expect(first.received()).toEqual({ skus: [{ ...sku, updates: [] }], apps: [] })
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

describe('sandbox store file: platform ids and updates', () => {
  it('ids stay unique across a restart, and a SKU created before it can be updated after it', async () => {
    const storeFile = join(scratch, 'ids-restart.json')
    const first = await sandboxFor({ storeFile })
    const before = await createSkus(first)
    expect((await putSku(first, before[0]!, { brand: 'Before the restart' })).status).toBe(200)
    const kept = first.received()
    await first.close()

    const second = await sandboxFor({ storeFile })
    expect(second.received()).toEqual(kept)
    const after = await createSkus(second)
    expect(new Set([...before, ...after]).size).toBe(4)
    const updated = await putSku(second, before[0]!, { productName: 'After the restart' })
    expect(updated.status).toBe(200)
    expect(second.received().skus[0]).toMatchObject({
      _id: before[0],
      sku: { brand: 'Before the restart', productName: 'After the restart' },
      updates: [{ body: { brand: 'Before the restart' } }, { body: { productName: 'After the restart' } }],
    })
  })

  it('an update is one more line; what was created stays in the file as it was sent', async () => {
    const storeFile = join(scratch, 'update-lines.json')
    const sandbox = await sandboxFor({ storeFile })
    const [id] = await createSkus(sandbox)
    const created = await readFile(storeFile, 'utf8')
    const body = { arEffect: { transform: { position: { y: 0.03 } } } }
    expect((await putSku(sandbox, id!, body)).status).toBe(200)
    await sandbox.close()
    const text = await readFile(storeFile, 'utf8')
    expect(text.startsWith(created)).toBe(true)
    expect(JSON.parse(text.slice(created.length))).toEqual({
      update: { _id: id, receivedAt: expect.any(String), body },
    })
  })

  it('a store written before ids were given out loads; its SKUs have no _id and cannot be updated', async () => {
    const sku = {
      id: '0d4f3c9e-5b8a-4c1e-9f2a-7e6d5c4b3a21',
      receivedAt: '2026-01-01T00:00:00.000Z',
      batchId: 'b',
    }
    const storeFile = join(scratch, 'before-ids.json')
    const text = `{"format":2}\n{"skus":[${JSON.stringify({ ...sku, sku: { barcode: '1', brand: 'Old' } })}]}\n`
    await writeFile(storeFile, text)
    const sandbox = await sandboxFor({ storeFile })
    expect(sandbox.notice).toBeUndefined()
    expect(sandbox.received().skus).toEqual([{ ...sku, sku: { barcode: '1', brand: 'Old' }, updates: [] }])
    // Its entry's own id was never the platform's id.
    const refused = await putSku(sandbox, sku.id, { brand: 'New' })
    expect(refused.status).toBe(404)
    expect(await refused.json()).toEqual({ message: `SKU ${sku.id} not found` })
    // New SKUs in the same store get ids and can be updated.
    const [id] = await createSkus(sandbox)
    expect((await putSku(sandbox, id!, { brand: 'New' })).status).toBe(200)
    await sandbox.close()
    expect((await readFile(storeFile, 'utf8')).startsWith(text)).toBe(true)
  })

  it('a headerless file starting with an update is not a store: refused by name and left as it is', async () => {
    const storeFile = join(scratch, 'headerless-update.json')
    const text =
      '{"update":{"_id":"aaaaaaaaaaaaaaaaaaaaaaaa","receivedAt":"2026-01-01T00:00:00.000Z","body":{}}}\n'
    await writeFile(storeFile, text)
    await expect(startSandbox({ token: TOKEN, storeFile })).rejects.toThrow(
      /its first line is neither the store's header nor a whole entry/,
    )
    expect(await readFile(storeFile, 'utf8')).toBe(text)
  })

  it('a SKU dropped to keep the store within its size takes its updates along, and is then not found', async () => {
    const storeFile = join(scratch, 'bounded-updates.json')
    const maxStoreBytes = 16 * 1024
    const sandbox = await sandboxFor({ storeFile, maxStoreBytes })
    const small = (n: number) => ({ skus: [{ barcode: `890100000${n}`, brand: 'Small' }] })
    const [oldest] = await createSkus(sandbox, small(0))
    let n = 1
    // Its update comes late, in the newer half the store keeps when it lets the oldest go.
    while ((await stat(storeFile)).size < maxStoreBytes * 0.7) await createSkus(sandbox, small(n++))
    const [beforeTheUpdate] = await createSkus(sandbox, small(n++))
    expect((await putSku(sandbox, oldest!, { brand: 'Updated late' })).status).toBe(200)
    while (sandbox.received().skus.some((entry) => entry._id === oldest))
      await createSkus(sandbox, small(n++))

    expect(sandbox.received().skus.map((entry) => entry._id)).toContain(beforeTheUpdate)
    expect((await putSku(sandbox, oldest!, { brand: 'Too late' })).status).toBe(404)
    await sandbox.close()
    expect(await readFile(storeFile, 'utf8')).not.toContain(oldest!)
    expect((await stat(storeFile)).size).toBeLessThanOrEqual(maxStoreBytes)
    const reopened = await sandboxFor({ storeFile, maxStoreBytes })
    expect(reopened.received()).toEqual(sandbox.received())
  })
})
