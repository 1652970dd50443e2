import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { knownTokens, rememberingTokens } from '#node/secrets/known-tokens.ts'
import { createTokenStore, parseKeychainSecret } from '#node/secrets/token-store.ts'
import {
  createTeamWorkspace,
  replicaFolder,
  WORKSPACE_SECRET_ID,
  type TeamWorkspace,
} from '#node/team/workspace-service.ts'
import { WORKSPACE_FILE_NAME } from '#node/team/workspace-file.ts'
import { basic, startTeamServer, type TeamServer } from '../../e2e/harness/team-server.ts'
import { createFakeKeychain } from '../secrets/fake-keychain.ts'
import { probeSecretService, rawEntry } from '../secrets/secret-service.ts'

const ANA = { username: 'ana', password: 'ana-pass' }
const SERVICE = 'Catalog Desk test'
const REPLICATES = { timeout: 20_000, interval: 50 }

let server: TeamServer
let workspaceUrl: string
let dataDir: string
let keychain: ReturnType<typeof createFakeKeychain>
let known: ReturnType<typeof knownTokens>
const opened: TeamWorkspace[] = []

beforeEach(async () => {
  server = await startTeamServer()
  workspaceUrl = await server.createWorkspace('autumn', [ANA])
  dataDir = await mkdtemp(join(tmpdir(), 'catalog-desk-workspace-'))
  keychain = createFakeKeychain()
  known = knownTokens()
})

afterEach(async () => {
  await Promise.all(opened.splice(0).map((workspace) => workspace.close()))
  await server.close()
  await rm(dataDir, { recursive: true, force: true })
})

/** Main's team workspace as main makes it at a start: over the data folder and the keychain. */
function workspaceService() {
  const tokens = rememberingTokens(createTokenStore({ service: SERVICE, keychain: keychain.backend }), known)
  const workspace = createTeamWorkspace({ dataDir, tokens, remember: known.remember })
  opened.push(workspace)
  return workspace
}

const kept = () => keychain.stored(SERVICE, WORKSPACE_SECRET_ID)
const workspaceFile = () => join(dataDir, WORKSPACE_FILE_NAME)

async function upToDate(workspace: TeamWorkspace) {
  await vi.waitFor(
    () => expect(workspace.status()).toMatchObject({ state: 'joined', replication: { kind: 'up-to-date' } }),
    REPLICATES,
  )
}

describe('the team workspace main holds (issue #41)', () => {
  it('joining keeps the address and the server’s name in a file, the password in the keychain only, and replicates', async () => {
    const workspace = workspaceService()
    const heard: string[] = []
    workspace.onStatus((status) => heard.push(status.state))
    const joined = await workspace.join(`${workspaceUrl}/`, ' ana ', ANA.password)
    expect(joined).toMatchObject({ ok: true, status: { state: 'joined', url: workspaceUrl, name: 'ana' } })
    expect(heard.slice(0, 2)).toEqual(['joining', 'joined'])
    await upToDate(workspace)

    const onDisk = await readFile(workspaceFile(), 'utf8')
    expect(JSON.parse(onDisk)).toEqual({ format: 1, url: workspaceUrl, name: 'ana' })
    expect(onDisk).not.toContain(ANA.password)
    expect(parseKeychainSecret(kept()!)).toEqual({ address: workspaceUrl, token: ANA.password })
    expect(existsSync(replicaFolder(dataDir, workspaceUrl))).toBe(true)
    // The log never carries the password, nor the Authorization header made of it.
    const line = `password ${ANA.password}, header ${basic(ANA)}, base64 ${basic(ANA).slice(6)}`
    expect(known.redact(line)).not.toMatch(new RegExp(`${ANA.password}|${basic(ANA).slice(6)}`))
    expect(JSON.stringify(workspace.status())).not.toContain(ANA.password)
  })

  it('a wrong password is said in words, and nothing is kept', async () => {
    const workspace = workspaceService()
    expect(await workspace.join(workspaceUrl, 'ana', 'wrong')).toEqual({
      ok: false,
      problem: 'credentials',
      message: `The server at ${server.url} does not know this name and password.`,
    })
    expect(workspace.status()).toEqual({ state: 'none' })
    expect(kept()).toBeUndefined()
    expect(existsSync(workspaceFile())).toBe(false)
  })

  it('leaving stops replicating and forgets the password and the kept workspace; the replica’s folder stays', async () => {
    const workspace = workspaceService()
    await workspace.join(workspaceUrl, ANA.username, ANA.password)
    await upToDate(workspace)
    expect(await workspace.leave()).toEqual({ state: 'none' })
    expect(kept()).toBeUndefined()
    expect(existsSync(workspaceFile())).toBe(false)
    expect(existsSync(replicaFolder(dataDir, workspaceUrl))).toBe(true)
    // Nothing is reopened at the next start, and the desk may join again.
    const next = workspaceService()
    expect(await next.reopen()).toEqual({ state: 'none' })
    expect(await next.join(workspaceUrl, ANA.username, ANA.password)).toMatchObject({ ok: true })
    await upToDate(next)
  })

  it('a kept workspace is opened again at the next start and replicates with the password from the keychain', async () => {
    const first = workspaceService()
    await first.join(workspaceUrl, ANA.username, ANA.password)
    await upToDate(first)
    await first.close()
    // What the other desk wrote meanwhile arrives once this one is back.
    await fetch(`${workspaceUrl}/sku:f1`, {
      method: 'PUT',
      headers: { Authorization: basic(ANA), 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'sku', payload: {}, deleted: false, editedBy: 'ana', editedAt: 1 }),
    })

    const next = workspaceService()
    expect(next.status()).toEqual({ state: 'none' })
    expect(await next.reopen()).toMatchObject({ state: 'joined', url: workspaceUrl, name: 'ana' })
    await upToDate(next)
    expect(known.redact(`${basic(ANA)}`)).not.toContain(basic(ANA).slice(6))
  })

  it('a kept workspace without its password (no keychain then) asks to join again rather than failing', async () => {
    const first = workspaceService()
    await first.join(workspaceUrl, ANA.username, ANA.password)
    await first.close()
    keychain.entries.clear()
    const next = workspaceService()
    expect(await next.reopen()).toMatchObject({
      state: 'joined',
      replication: { kind: 'failed', reason: expect.stringMatching(/join it again/) },
    })
    expect(await next.leave()).toEqual({ state: 'none' })
  })

  it('a damaged or foreign file reads as no workspace, and the app goes on', async () => {
    for (const text of [
      '{"format":1,"url":"http://127.0.0.1:5984/autumn"',
      '[]',
      JSON.stringify({ format: 1, url: 'http://couch.example.com/autumn', name: 'ana' }),
      JSON.stringify({ format: 1, url: workspaceUrl, name: '' }),
      JSON.stringify({ format: 2, url: workspaceUrl, name: 'ana' }),
    ]) {
      await writeFile(workspaceFile(), text)
      expect(await workspaceService().reopen(), text).toEqual({ state: 'none' })
    }
  })

  it('a replica that cannot be opened is said, never thrown, and the desk can still leave', async () => {
    await mkdir(join(dataDir, 'team'))
    await writeFile(replicaFolder(dataDir, workspaceUrl), 'a file where the replica’s folder goes')
    const workspace = workspaceService()
    expect(await workspace.join(workspaceUrl, ANA.username, ANA.password)).toMatchObject({
      ok: true,
      status: {
        state: 'joined',
        replication: { kind: 'failed', reason: expect.stringMatching(/cannot be opened/) },
      },
    })
    expect(await workspace.leave()).toEqual({ state: 'none' })
    expect(kept()).toBeUndefined()
  })

  it('shares drafts as the desk’s name and hands over what arrived, only while joined', async () => {
    const workspace = workspaceService()
    const share = {
      kind: 'sku' as const,
      id: 'f1',
      payload: { productName: 'Aviator' },
      deleted: false,
      editedAt: 5,
    }
    await expect(workspace.share([share])).rejects.toThrow('This desk has joined no team workspace.')
    await expect(workspace.arrivals('0', 10)).rejects.toThrow('This desk has joined no team workspace.')
    await workspace.join(workspaceUrl, ANA.username, ANA.password)
    const [shared] = await workspace.share([share])
    expect(shared).toMatchObject({ kind: 'sku', id: 'f1', conflict: false })
    const { arrivals, last } = await workspace.arrivals('0', 10)
    expect(arrivals).toEqual([
      {
        kind: 'sku',
        id: 'f1',
        rev: shared!.rev,
        payload: share.payload,
        deleted: false,
        editedBy: 'ana',
        editedAt: 5,
        conflicts: 0,
      },
    ])
    // From the sequence it answered with, nothing: each change is handed over once.
    const again = await workspace.arrivals(last, 10)
    expect(again).toEqual({ arrivals: [], mappings: [], records: [], setAside: [], last })
    await workspace.leave()
    await expect(workspace.arrivals('0', 10)).rejects.toThrow('This desk has joined no team workspace.')
  })

  it('counts the documents set aside for Settings, each once however often the page asks, and names the last', async () => {
    const workspace = workspaceService()
    await workspace.join(workspaceUrl, ANA.username, ANA.password)
    const put = (id: string, doc: Record<string, unknown>) =>
      fetch(`${workspaceUrl}/${id}`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', Authorization: basic(server.admin) },
        body: JSON.stringify(doc),
      })
    await put('sku:huge', {
      type: 'sku',
      payload: { notes: 'x'.repeat(1_100_000) },
      deleted: false,
      editedBy: 'ben',
      editedAt: 1,
    })
    await put('settings', { theme: 'dark' })
    const setAside = async () => (await workspace.arrivals('0', 10)).setAside.map(({ id }) => id)
    await vi.waitFor(async () => expect(await setAside()).toHaveLength(2), REPLICATES)
    await workspace.arrivals('0', 10)
    const status = workspace.status()
    expect(status.state === 'joined' && status.setAside).toEqual({
      count: 2,
      last: { id: expect.stringMatching(/^(sku:huge|settings)$/), reason: expect.any(String) },
    })
  })

  it('claims nothing with no workspace joined, and says so', async () => {
    // Claiming while joined goes through this service in the browser test of two desks sending
    // (test/e2e/team-sending.spec.ts); RunClaims itself in claims.test.ts. Here, a desk's
    // replication picking up the claims would still be fetching when the test's server closes.
    const workspace = workspaceService()
    const request = {
      destination: 'https://api.example.test',
      run: 'run-1',
      drafts: [{ kind: 'sku' as const, id: 'f1', position: 0, label: '4006381333931' }],
    }
    expect(await workspace.claim(request)).toEqual({
      ok: false,
      message: 'This desk has joined no team workspace.',
    })
    expect(await workspace.renewClaims('run-1')).toEqual([])
    await workspace.releaseClaims('run-1')
  })

  it('a server gone is "offline" and retried, not a failure', async () => {
    const workspace = workspaceService()
    await workspace.join(workspaceUrl, ANA.username, ANA.password)
    await upToDate(workspace)
    await server.close()
    await vi.waitFor(
      () => expect(workspace.status()).toMatchObject({ replication: { kind: 'offline' } }),
      REPLICATES,
    )
    server = await startTeamServer()
  })
})

// A service name of its own per run: the test never sees or touches anyone's real entries.
const REAL_SERVICE = `Catalog Desk test ${randomUUID()}`
const secretService = await probeSecretService(REAL_SERVICE)

describe.skipIf(!secretService.usable)('the team workspace with the real Secret Service', () => {
  it('keeps the password in the keychain across starts, and leaving deletes the entry', async () => {
    const start = () => {
      const workspace = createTeamWorkspace({ dataDir, tokens: createTokenStore({ service: REAL_SERVICE }) })
      opened.push(workspace)
      return workspace
    }
    const first = start()
    expect(await first.join(workspaceUrl, ANA.username, ANA.password)).toMatchObject({ ok: true })
    expect(await first.join(workspaceUrl, ANA.username, ANA.password).catch(String)).toMatch(/leave it first/)
    await first.close()
    const entry = rawEntry(REAL_SERVICE, WORKSPACE_SECRET_ID)
    expect(parseKeychainSecret((await entry.getPassword())!)).toEqual({
      address: workspaceUrl,
      token: ANA.password,
    })

    // A new process's store has nothing in memory: the password comes from the keychain.
    const next = start()
    await next.reopen()
    await upToDate(next)
    await next.leave()
    expect(await entry.getPassword()).toBeNull()
  })
})

if (!secretService.usable)
  process.stderr.write(
    `Team workspace keychain test skipped: ${secretService.reason}. Run it with: .ci/with-keychain.sh npx vitest run test/unit/team\n`,
  )
