import { describe, expect, it } from 'vitest'
import { BUILT_IN_PROFILES, profileSchema } from '#shared/profile.ts'
import {
  DESTINATION_KINDS,
  EMBEDDED_SANDBOX_DESTINATION,
  destinationAddressName,
  destinationKindOf,
  destinationOf,
  hasOwnAddress,
  needsNetwork,
} from '#shared/sync/destination.ts'

const SANDBOX_URL = 'http://127.0.0.1:4010'
const sandbox = BUILT_IN_PROFILES.find(
  (profile) => profile.kind === DESTINATION_KINDS['embedded-sandbox'].kind,
)!
const production = BUILT_IN_PROFILES.find((profile) => profile.id === 'production')!

describe('the destination kinds', () => {
  it('holds one entry for every kind of profile the schema takes, each under its own name', () => {
    const kinds = profileSchema().options.map((option) => option.shape.kind.value)
    expect(Object.keys(DESTINATION_KINDS).sort()).toEqual([...kinds].sort())
    for (const [name, entry] of Object.entries(DESTINATION_KINDS)) expect(entry.kind).toBe(name)
  })

  it('says where each profile sends and what it is known by, whatever the sandbox’s port', () => {
    expect(destinationOf(sandbox, SANDBOX_URL)).toBe(EMBEDDED_SANDBOX_DESTINATION)
    expect(destinationKindOf(sandbox).address(sandbox, { url: SANDBOX_URL })).toBe(SANDBOX_URL)
    const pointed = { ...production, baseUrl: `${SANDBOX_URL}/` }
    expect(destinationOf(pointed, SANDBOX_URL)).toBe(EMBEDDED_SANDBOX_DESTINATION)
    expect(destinationOf(production, SANDBOX_URL)).toBe('https://api.pixelbin.io')
    expect(destinationAddressName(EMBEDDED_SANDBOX_DESTINATION)).toBe('the embedded sandbox')
    expect(destinationAddressName('https://api.pixelbin.io')).toBe('https://api.pixelbin.io')
  })

  it('says which destinations need the network: none on this computer (the sandbox, a loopback address)', () => {
    expect(needsNetwork(sandbox)).toBe(false)
    const at = (baseUrl: string) => needsNetwork({ kind: 'service', baseUrl })
    for (const here of [
      'http://127.0.0.1:4010',
      'http://localhost:8080/',
      'http://[::1]:9000',
      ' https://LOCALHOST ',
    ])
      expect(at(here), here).toBe(false)
    for (const away of [
      'https://api.pixelbin.io',
      'https://api.pixelbinz0.de',
      'https://127.0.0.1.example',
      'https://localhost.example.com',
      'https://10.0.0.1',
      'not an address',
    ])
      expect(at(away), away).toBe(true)
  })

  it('keeps what differs in the entries: the token, the address the person edits, offline and words', () => {
    expect(hasOwnAddress(sandbox)).toBe(false)
    expect(hasOwnAddress(production)).toBe(true)
    const down = { url: '', problem: 'port taken' }
    expect(destinationKindOf(sandbox).unavailable(down)).toContain('not running (port taken)')
    expect(destinationKindOf(production).unavailable(down)).toBeUndefined()
    expect(destinationKindOf(sandbox).ownToken).toBe(false)
    expect(destinationKindOf(production).ownToken).toBe(true)
    expect(destinationKindOf(sandbox).customProfiles).toBe(false)
    expect(destinationKindOf(sandbox).words.cliRefusal?.('Sandbox')).toMatch(/catalog-desk sandbox/)
    expect(
      destinationKindOf({ ...production, baseUrl: ' https://x.example/ ' }).normalise({
        ...production,
        baseUrl: ' https://x.example/ ',
      }),
    ).toMatchObject({ baseUrl: 'https://x.example' })
  })
})
