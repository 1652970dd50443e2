import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PROFILE_STORE_MODULE, runNodeScript, TOKEN_STORE_MODULE } from './child-node.ts'
import { filesContaining } from './secret-scan.ts'

// What Catalog Desk does on a machine without a Secret Service (a bare window manager, a server
// running the CLI): the real keyring library in a process that has no D-Bus session to find one.
const SCRIPT = `
const { createTokenStore } = await import(process.env.TOKEN_STORE_MODULE)
const { createProfileStore } = await import(process.env.PROFILE_STORE_MODULE)
const tokens = createTokenStore({ service: process.env.SERVICE })
const profiles = createProfileStore({ dir: process.env.PROFILE_DIR, tokens })
await profiles.save({
  id: 'client-eu', name: 'Client EU', kind: 'service', baseUrl: 'https://api.example.com',
  tokenEncoding: 'base64', batchSize: 50, concurrency: 1,
  timeouts: { connectMs: 10000, responseMs: 60000, totalMs: 120000 },
})
const address = 'https://api.example.com'
const set = await tokens.set('client-eu', address, process.env.TOKEN)
const getMatches = (await tokens.get('client-eu', address)) === process.env.TOKEN.trim()
const has = await tokens.has('client-eu', address)
const moved = await tokens.has('client-eu', 'https://api.moved.example.com')
const availability = await tokens.availability()
const other = await tokens.has('production', 'https://api.pixelbin.io')
await profiles.activate('client-eu')
console.log(JSON.stringify({ set, getMatches, has, moved, availability, other }))
`

const MEMORY_NOTICE =
  /^No system keychain is available \((.+)\): the token is kept in memory until Catalog Desk closes; you will need to paste it again next time\.$/

interface Result {
  set: { storage: string; notice?: string }
  getMatches: boolean
  has: { isSet: boolean; storage: string | null }
  moved: { isSet: boolean; storage: string | null }
  availability: { keychain: boolean; reason?: string }
  other: { isSet: boolean; storage: string | null }
}

/** The environment of a process that has no session bus to find a Secret Service on. */
function withoutSessionBus(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    // libdbus also looks for $XDG_RUNTIME_DIR/bus: point it where there is none.
    XDG_RUNTIME_DIR: home,
  }
  delete env.DBUS_SESSION_BUS_ADDRESS
  delete env.DISPLAY
  delete env.GNOME_KEYRING_CONTROL
  return env
}

// Elsewhere (macOS Keychain, Windows Credential Manager) a keychain exists without any D-Bus.
describe.skipIf(process.platform !== 'linux')('token store without a keychain (no D-Bus session)', () => {
  let home: string
  let profileDir: string
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'catalog-desk-nokeychain-home-'))
    profileDir = await mkdtemp(join(tmpdir(), 'catalog-desk-nokeychain-profiles-'))
  })
  afterEach(async () => {
    await rm(home, { recursive: true, force: true })
    await rm(profileDir, { recursive: true, force: true })
  })

  it('keeps the token in memory for the session, says so, and writes it nowhere', async () => {
    const token = `cd-test-${randomUUID()}`
    const child = await runNodeScript(SCRIPT, {
      ...withoutSessionBus(home),
      TOKEN_STORE_MODULE,
      PROFILE_STORE_MODULE,
      SERVICE: `Catalog Desk test ${randomUUID()}`,
      PROFILE_DIR: profileDir,
      TOKEN: ` ${token}\n`,
    })
    const result = child.result as Result

    expect(result.set.storage).toBe('memory')
    expect(result.set.notice).toMatch(MEMORY_NOTICE)
    expect(result.set.notice).not.toContain(token)
    expect(result.getMatches).toBe(true)
    expect(result.has).toEqual({ isSet: true, storage: 'memory' })
    // Bound to its address in memory too: not given for another.
    expect(result.moved).toEqual({ isSet: false, storage: null })
    expect(result.availability.keychain).toBe(false)
    expect(result.availability.reason).toEqual(expect.any(String))
    expect(result.other).toEqual({ isSet: false, storage: null })

    expect(child.stdout).not.toContain(token)
    expect(child.stderr).not.toContain(token)
    const scan = await filesContaining([home, profileDir], token)
    expect(scan.found).toEqual([])
    expect(scan.scanned).toContain(join(profileDir, 'profiles.json'))
  })
})
