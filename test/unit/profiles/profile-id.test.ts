import { describe, expect, it } from 'vitest'
import { newProfileId, slugifyProfileName } from '#node/profiles/profile-id.ts'
import { profileSchema, DEFAULT_SENDING } from '#shared/profile.ts'

function isValidId(id: string): boolean {
  const profile = { id, name: 'x', kind: 'service', baseUrl: 'https://example.com', ...DEFAULT_SENDING }
  return profileSchema().safeParse(profile).success
}

describe('newProfileId', () => {
  it.each([
    ['Client EU', 'client-eu'],
    ['  Client EU (test)  ', 'client-eu-test'],
    ['Café Zürich', 'cafe-zurich'],
    ['--Staging #2--', 'staging-2'],
    ['日本', 'profile'],
    ['', 'profile'],
  ])('makes %j into %j', (name, id) => {
    expect(newProfileId(name, [])).toBe(id)
    expect(isValidId(id)).toBe(true)
  })

  it('adds a number when the id is taken', () => {
    expect(newProfileId('Client EU', ['client-eu'])).toBe('client-eu-2')
    expect(newProfileId('Client EU', ['client-eu', 'client-eu-2'])).toBe('client-eu-3')
  })

  it('never takes a built-in id', () => {
    expect(newProfileId('Production', [])).toBe('production-2')
    expect(newProfileId('Sandbox', [])).toBe('sandbox-2')
  })

  it('keeps long names within the schema’s 64 characters, suffix included', () => {
    const name = 'A very long profile name that goes on and on well past any sensible length for an id'
    const first = newProfileId(name, [])
    const taken = Array.from({ length: 120 }, (_, n) => (n === 0 ? first : `${first}-${n + 1}`))
    const later = newProfileId(name, taken)
    expect(later).toBe(`${first}-121`)
    for (const id of [first, later]) {
      expect(id.length).toBeLessThanOrEqual(64)
      expect(isValidId(id)).toBe(true)
    }
    expect(slugifyProfileName(name).endsWith('-')).toBe(false)
  })
})
