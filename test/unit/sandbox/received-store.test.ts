import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
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

  it('is written through a temporary file and leaves none behind', async () => {
    const folder = join(scratch, 'atomic')
    const storeFile = join(folder, 'received.json')
    const sandbox = await sandboxFor({ storeFile })
    await Promise.all([postSkus(sandbox), postSkus(sandbox), postApp(sandbox)])
    await sandbox.close()
    expect(await readdir(folder)).toEqual(['received.json'])
    const saved = JSON.parse(await readFile(storeFile, 'utf8')) as { skus: unknown[]; apps: unknown[] }
    expect(saved.skus).toHaveLength(4)
    expect(saved.apps).toHaveLength(1)
  })

  it('clearReceived empties the file too', async () => {
    const storeFile = join(scratch, 'clear.json')
    const sandbox = await sandboxFor({ storeFile })
    await postSkus(sandbox)
    await sandbox.clearReceived()
    expect(JSON.parse(await readFile(storeFile, 'utf8'))).toMatchObject({ skus: [], apps: [] })
  })

  it('a file that is not a store stops the start instead of being overwritten', async () => {
    const storeFile = join(scratch, 'not-a-store.json')
    await writeFile(storeFile, '{"hello": "world"}')
    await expect(startSandbox({ token: TOKEN, storeFile })).rejects.toThrow(/not a sandbox store/)
    await writeFile(storeFile, '{"skus": [')
    await expect(startSandbox({ token: TOKEN, storeFile })).rejects.toThrow(/is not JSON/)
    expect(await readFile(storeFile, 'utf8')).toBe('{"skus": [')
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
