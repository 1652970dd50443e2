import { describe, expect, it } from 'vitest'
import { knownTokens, redactCredentials, rememberingTokens } from '#node/secrets/known-tokens.ts'
import { REDACTED, tokenForms } from '#node/secrets/redaction.ts'
import { createTokenStore } from '#node/secrets/token-store.ts'
import { createFakeKeychain } from './fake-keychain.ts'

const TOKEN = 'tok/en+with="odd"\\chars'

describe('knownTokens', () => {
  it('removes every form of every token it was told, and a JSON-escaped one', () => {
    const known = knownTokens()
    known.remember(TOKEN)
    known.remember('  second-token ')
    const text = [
      ...tokenForms(TOKEN),
      JSON.stringify({ token: TOKEN }),
      'second-token',
      Buffer.from('second-token').toString('base64'),
    ].join(' | ')
    const safe = known.redact(text)
    for (const form of [
      ...tokenForms(TOKEN),
      JSON.stringify(TOKEN).slice(1, -1),
      ...tokenForms('second-token'),
    ]) {
      expect(safe).not.toContain(form)
    }
    expect(safe).toContain(REDACTED)
  })

  it('removes credentials in headers whoever they belong to, and leaves other text alone', () => {
    expect(redactCredentials('Authorization: Bearer abc.def-123')).toBe(`Authorization: ${REDACTED}`)
    expect(redactCredentials('{"authorization":"Basic dXNlcjpwdw=="}')).toBe(
      `{"authorization":"${REDACTED}"}`,
    )
    expect(redactCredentials("headers: { authorization: 'zzz' }")).toBe(
      `headers: { authorization: '${REDACTED}' }`,
    )
    expect(redactCredentials('sent with bearer xyz, then')).toBe(`sent with bearer ${REDACTED}, then`)
    expect(redactCredentials('Sync: 3 SKUs sent: created (HTTP 201)')).toBe(
      'Sync: 3 SKUs sent: created (HTTP 201)',
    )
  })

  it('learns the tokens that pass through the token store: set, and read for a request', async () => {
    const known = knownTokens()
    const tokens = rememberingTokens(
      createTokenStore({ service: 'test', keychain: createFakeKeychain().backend }),
      known,
    )
    await tokens.set('production', 'https://api.example.com', 'set-here')
    expect(known.redact('a set-here b')).toBe(`a ${REDACTED} b`)

    // A token already in the keychain at start, read as a request leaves.
    const later = knownTokens()
    const again = rememberingTokens(
      createTokenStore({ service: 'test', keychain: (await keychainWith('staging', 'read-later')).backend }),
      later,
    )
    expect(later.redact('read-later')).toBe('read-later')
    await again.get('staging', 'https://staging.example.com')
    expect(later.redact('read-later')).toBe(REDACTED)
  })
})

async function keychainWith(profileId: string, token: string) {
  const keychain = createFakeKeychain()
  await createTokenStore({ service: 'test', keychain: keychain.backend }).set(
    profileId,
    'https://staging.example.com',
    token,
  )
  return keychain
}

describe('knownTokens and the sandbox’s public token', () => {
  it('does not take the printed sandbox token for a secret, so the log keeps its words', () => {
    const known = knownTokens()
    known.remember('sandbox-token')
    known.remember('sandbox')
    const line = 'Connection test: this sandbox accepts the token sandbox-token'
    expect(known.redact(line)).toBe(line)
  })
})
