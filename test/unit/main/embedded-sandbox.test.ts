import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  EMBEDDED_SANDBOX_TOKEN,
  moveProfilesToSandbox,
  SANDBOX_STORE_FILE_NAME,
  startEmbeddedSandbox,
  type StartedSandbox,
} from '#main/embedded-sandbox.ts'
import { SANDBOX_PORT_FILE_NAME } from '#main/sandbox-port.ts'
import { createProfileStore, type ProfileStore } from '#node/profiles/profile-store.ts'
import { createTokenStore, type TokenStore } from '#node/secrets/token-store.ts'
import { BUILT_IN_PROFILES, DEFAULT_SENDING, type Profile } from '#shared/profile.ts'
import { BULK_UPLOAD_PATH } from '#shared/service/endpoints.ts'
import { createFakeKeychain } from '../secrets/fake-keychain.ts'

let dir: string
let tokens: TokenStore
let profiles: ProfileStore
const started: StartedSandbox[] = []
const occupiers: Server[] = []

/** A start of the app's sandbox on `dir`, closed after the test. */
async function start(): Promise<StartedSandbox> {
  const sandbox = await startEmbeddedSandbox(dir)
  started.push(sandbox)
  return sandbox
}

/** Starts once and quits: what the next start finds in the data folder. */
async function portOfAnEarlierStart(): Promise<number> {
  const { running } = await start()
  await running!.close()
  return running!.port
}

/** Another program on `port` (127.0.0.1, where the sandbox listens). */
async function occupy(port: number): Promise<void> {
  const server = createServer()
  occupiers.push(server)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
}

async function rememberedPort(): Promise<unknown> {
  return JSON.parse(await readFile(join(dir, SANDBOX_PORT_FILE_NAME), 'utf8'))
}

function localProfile(id: string, baseUrl: string): Profile {
  return {
    id,
    name: `Local ${id}`,
    kind: 'service',
    baseUrl,
    ...DEFAULT_SENDING,
    timeouts: { ...DEFAULT_SENDING.timeouts },
  }
}

/** A bulk upload the sandbox refuses as empty: a 400 and not a 401 means it took the token. */
function sendEmptyBatch(url: string, token: string): Promise<Response> {
  return fetch(url + BULK_UPLOAD_PATH, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ skus: [] }),
  })
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-embedded-sandbox-'))
  tokens = createTokenStore({ service: 'Catalog Desk (unit)', keychain: createFakeKeychain().backend })
  profiles = createProfileStore({ dir, tokens })
  // The module logs what it could not do; the tests read it from the notices instead.
  vi.spyOn(console, 'error').mockImplementation(() => {})
})

afterEach(async () => {
  await Promise.all(started.map((sandbox) => sandbox.running?.close()))
  started.length = 0
  await Promise.all(occupiers.map((server) => new Promise((resolve) => server.close(resolve))))
  occupiers.length = 0
  vi.restoreAllMocks()
  await rm(dir, { recursive: true, force: true })
})

describe('the embedded sandbox keeps its port', () => {
  it('the first start takes a free port and remembers it', async () => {
    const { running, handlerView, previousPort } = await start()
    expect(running!.port).toBeGreaterThan(0)
    expect(handlerView).toEqual({ url: `http://127.0.0.1:${running!.port}`, token: EMBEDDED_SANDBOX_TOKEN })
    expect(previousPort).toBeUndefined()
    await expect(rememberedPort()).resolves.toEqual({ format: 1, port: running!.port })
  })

  it('the next start listens on the same port again', async () => {
    const port = await portOfAnEarlierStart()
    const { running, handlerView, previousPort } = await start()
    expect(running!.port).toBe(port)
    expect(handlerView.url).toBe(`http://127.0.0.1:${port}`)
    expect(previousPort).toBeUndefined()
    expect((await sendEmptyBatch(handlerView.url, EMBEDDED_SANDBOX_TOKEN)).status).toBe(400)
  })

  it('a taken port: another free one, remembered, and the profiles pointed at the old address follow with their tokens', async () => {
    const oldPort = await portOfAnEarlierStart()
    const oldUrl = `http://127.0.0.1:${oldPort}`
    await profiles.save(localProfile('local', oldUrl))
    await profiles.save(localProfile('local-name', `http://localhost:${oldPort}/`))
    await profiles.save(localProfile('remote', 'https://eu.example.com'))
    await tokens.set('local', oldUrl, EMBEDDED_SANDBOX_TOKEN)
    await occupy(oldPort)

    const sandbox = await start()
    const { running, previousPort } = sandbox
    expect(running!.port).not.toBe(oldPort)
    expect(previousPort).toBe(oldPort)
    await expect(rememberedPort()).resolves.toEqual({ format: 1, port: running!.port })

    const view = await moveProfilesToSandbox(sandbox, { profiles, tokens })
    expect(view).toEqual({
      url: running!.url,
      token: EMBEDDED_SANDBOX_TOKEN,
      notice: `The sandbox could not listen on port ${oldPort} again and now listens at ${running!.url}. The profiles "Local local", "Local local-name" were moved there.`,
    })
    const { profiles: after } = await profiles.list()
    expect(after.find((profile) => profile.id === 'local')).toEqual(localProfile('local', running!.url))
    expect(after.find((profile) => profile.id === 'local-name')).toEqual(
      localProfile('local-name', running!.url),
    )
    expect(after.find((profile) => profile.id === 'remote')).toEqual(
      localProfile('remote', 'https://eu.example.com'),
    )
    expect(after.find((profile) => profile.id === 'sandbox')).toEqual(BUILT_IN_PROFILES[0])

    // The token is given out for the new address, and the sandbox there takes it.
    const token = await tokens.get('local', running!.url)
    expect(token).toBe(EMBEDDED_SANDBOX_TOKEN)
    expect((await sendEmptyBatch(running!.url, token!)).status).toBe(400)
    expect((await sendEmptyBatch(running!.url, 'not-the-token')).status).toBe(401)

    // The new port is the one kept: the start after this one has it again.
    await running!.close()
    const next = await start()
    expect(next.running!.port).toBe(running!.port)
    expect(next.previousPort).toBeUndefined()
  })

  it('a taken port with no custom profile pointed at it changes nothing else and says nothing', async () => {
    const oldPort = await portOfAnEarlierStart()
    await occupy(oldPort)
    const sandbox = await start()
    expect(sandbox.previousPort).toBe(oldPort)
    await expect(moveProfilesToSandbox(sandbox, { profiles, tokens })).resolves.toBe(sandbox.handlerView)
    expect(sandbox.handlerView.notice).toBeUndefined()
  })

  it('read-only profiles stay at the old address, and the notice names them', async () => {
    const oldPort = await portOfAnEarlierStart()
    const oldUrl = `http://127.0.0.1:${oldPort}`
    const newer = JSON.stringify({
      version: 2,
      activeId: 'sandbox',
      profiles: [localProfile('local', oldUrl)],
    })
    await writeFile(join(dir, 'profiles.json'), newer)
    await tokens.set('local', oldUrl, EMBEDDED_SANDBOX_TOKEN)
    await occupy(oldPort)

    const sandbox = await start()
    const view = await moveProfilesToSandbox(sandbox, { profiles, tokens })

    expect(view.url).toBe(sandbox.running!.url)
    expect(view.notice).toBe(
      `The sandbox could not listen on port ${oldPort} again and now listens at ${sandbox.running!.url}. The profile "Local local" still points at ${oldUrl} (the saved profiles cannot be changed now): set it to the new address in Settings.`,
    )
    await expect(readFile(join(dir, 'profiles.json'), 'utf8')).resolves.toBe(newer)
    await expect(tokens.get('local', oldUrl)).resolves.toBe(EMBEDDED_SANDBOX_TOKEN)
  })

  it('profiles that cannot even be read do not stop the start: the notice says what to check', async () => {
    const oldPort = await portOfAnEarlierStart()
    await occupy(oldPort)
    const sandbox = await start()
    const unreadable: ProfileStore = {
      ...profiles,
      list: async () => {
        throw new Error('the disk went away')
      },
    }
    const view = await moveProfilesToSandbox(sandbox, { profiles: unreadable, tokens })
    expect(view.notice).toMatch(
      new RegExp(
        `the profiles could not be checked for its old address \\(the disk went away\\): set any that point at http://127\\.0\\.0\\.1:${oldPort} or http://localhost:${oldPort} to the new address\\.$`,
      ),
    )
  })

  it.each([
    ['not JSON', '{"format":1,"port":'],
    ['not an object', '[51234]'],
    ['no port', '{"format":1}'],
    ['a port that is not a number', '{"format":1,"port":"51234"}'],
    ['a port out of range', '{"format":1,"port":70000}'],
    ['a port that is not whole', '{"format":1,"port":512.5}'],
  ])('a port file holding %s counts as none: a free port, remembered', async (_case, text) => {
    await writeFile(join(dir, SANDBOX_PORT_FILE_NAME), text)
    const { running, handlerView, previousPort } = await start()
    expect(running!.port).toBeGreaterThan(0)
    expect(handlerView.problem).toBeUndefined()
    expect(previousPort).toBeUndefined()
    await expect(rememberedPort()).resolves.toEqual({ format: 1, port: running!.port })
  })

  it('a port that cannot be remembered does not stop the start: the notice says the address may change', async () => {
    // A folder where the file should be: it can be neither read nor replaced.
    await mkdir(join(dir, SANDBOX_PORT_FILE_NAME))
    const { running, handlerView } = await start()
    expect(running).toBeDefined()
    expect(handlerView.notice).toMatch(
      /^The sandbox's port could not be kept for the next start \(.+\): its address may change then\.$/,
    )
  })

  it('a store set aside on a start that also found its port taken still says where the old store went', async () => {
    const oldPort = await portOfAnEarlierStart()
    await writeFile(join(dir, SANDBOX_STORE_FILE_NAME), '{"format":2}\nnot json\n{"skus":[]}\n')
    await occupy(oldPort)
    const { running, handlerView } = await start()
    expect(running!.port).not.toBe(oldPort)
    expect(handlerView.notice).toMatch(/^The sandbox's store could not be used \(line 2 is not JSON\)/)
  })
})
