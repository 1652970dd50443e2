import { describe, expect, it } from 'vitest'
import { REDACTED, createRedactor, redactStrings, tokenForms } from '#node/secrets/redaction.ts'
import { redactOutcome } from '#node/service/redact-outcome.ts'
import { showable, truncate } from '#node/service/untrusted-text.ts'
import { SANDBOX_TOKEN } from '#shared/sandbox-token.ts'

const TOKEN = 'tok/en+with=odd?chars'
const BASE64 = Buffer.from(TOKEN).toString('base64')

describe('createRedactor', () => {
  const redact = createRedactor(TOKEN)

  it.each([
    ['the raw token', TOKEN],
    ['its base64 form', BASE64],
    ['its base64 form without padding', BASE64.replace(/=+$/, '')],
    ['its base64url form', Buffer.from(TOKEN).toString('base64url')],
    ['the raw token, URL-encoded', encodeURIComponent(TOKEN)],
    ['the base64 form, URL-encoded', encodeURIComponent(BASE64)],
  ])('removes %s', (_, form) => {
    const text = `authorization: Bearer ${form}; again ${form}!`
    const safe = redact(text)
    for (const each of tokenForms(TOKEN)) expect(safe).not.toContain(each)
    expect(safe).toBe(`authorization: Bearer ${REDACTED}; again ${REDACTED}!`)
  })

  it('leaves other text alone', () => {
    expect(redact('nothing secret here')).toBe('nothing secret here')
  })

  it('is the identity without a token', () => {
    expect(createRedactor(undefined)('anything')).toBe('anything')
    expect(createRedactor('')('anything')).toBe('anything')
  })

  it('never returns a text that still holds the token, even for a token made of its own marker', () => {
    const odd = createRedactor('ken re')
    expect(odd(`[to${'ken re'}moved]`)).not.toContain('ken re')
  })
})

describe('redactStrings', () => {
  it('redacts values and keys at any depth, in place', () => {
    const value = { a: [`x ${TOKEN}`, { [TOKEN]: BASE64 }], n: 1, b: null }
    const safe = redactStrings(value, createRedactor(TOKEN))
    expect(JSON.stringify(safe)).not.toContain(TOKEN)
    expect(JSON.stringify(safe)).not.toContain(BASE64)
    expect(safe).toEqual({ a: [`x ${REDACTED}`, { [REDACTED]: REDACTED }], n: 1, b: null })
  })

  it('keeps a __proto__ key a plain key', () => {
    const parsed = JSON.parse(`{"__proto__": "${TOKEN}"}`) as Record<string, unknown>
    redactStrings(parsed, createRedactor(TOKEN))
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toBe(REDACTED)
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
  })

  it('walks a deeply nested document without overflowing the stack', () => {
    const depth = 200_000
    const parsed = JSON.parse('['.repeat(depth) + `"${TOKEN}"` + ']'.repeat(depth)) as unknown
    expect(() => redactStrings(parsed, createRedactor(TOKEN))).not.toThrow()
  })
})

describe('redactOutcome', () => {
  it('scrubs every text of an outcome', () => {
    const safe = redactOutcome(
      {
        kind: 'rejected',
        processed: 'no',
        message: `m ${TOKEN}`,
        serviceMessage: `s ${BASE64}`,
        problems: [{ path: TOKEN, message: BASE64 }],
        body: { echo: TOKEN },
        durationMs: 1,
      },
      createRedactor(TOKEN),
    )
    const text = JSON.stringify(safe)
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain(BASE64)
  })
})

describe('untrusted text', () => {
  it('cuts between characters, never inside a surrogate pair', () => {
    const cut = truncate('😀'.repeat(20), 5)
    expect(Array.from(cut)).toEqual(['😀', '😀', '😀', '😀', '…'])
    expect(truncate('😀😀', 2)).toBe('😀😀')
    expect(truncate('abc', 3)).toBe('abc')
  })

  it('removes the token before cutting, so no half of it survives', () => {
    const text = 'x'.repeat(95) + TOKEN + 'y'.repeat(50)
    const shown = showable(text, 100, createRedactor(TOKEN))
    expect(shown).not.toContain(TOKEN.slice(0, 5))
    expect(shown.length).toBeLessThanOrEqual(100)
  })

  it('removes a token split by invisible characters', () => {
    const split = `${TOKEN.slice(0, 4)}\u200b${TOKEN.slice(4)}`
    expect(showable(`see ${split}`, 100, createRedactor(TOKEN))).toBe(`see ${REDACTED}`)
  })
})

describe('public tokens', () => {
  it('leaves the words of a message alone when the token is one the app prints (the sandbox’s)', () => {
    const message = 'The token is not valid; this sandbox accepts the token as it is or base64-encoded'
    expect(createRedactor(SANDBOX_TOKEN)(message)).toBe(message)
    // The token the old Settings text named: people who followed it have it saved.
    expect(createRedactor('sandbox')(message)).toBe(message)
    expect(createRedactor(' sandbox ')(message)).toBe(message)
  })

  it('still removes any other token, even one that begins like the sandbox’s', () => {
    const secret = 'sandbox-token-but-secret'
    expect(createRedactor(secret)(`echo ${secret}`)).toBe(`echo ${REDACTED}`)
  })
})
