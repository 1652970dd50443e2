import { describe, expect, it } from 'vitest'
import { canonicalAddress, sameAddress } from '#shared/http-address.ts'

describe('an address in its one spelling', () => {
  it.each([
    ['HTTP://LocalHost:80/api/', 'http://localhost/api'],
    ['https://API.Example.com:443', 'https://api.example.com'],
    [' https://api.example.com:8443/v1// ', 'https://api.example.com:8443/v1'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
  ])('%s is %s', (given, canonical) => {
    expect(canonicalAddress(given)).toBe(canonical)
  })

  it('gives back what cannot be read, for its check to refuse', () => {
    expect(canonicalAddress('not an address')).toBe('not an address')
  })

  it('takes this computer under any of its names for one place, and nothing else', () => {
    expect(sameAddress('http://localhost:4010/', 'http://127.0.0.1:4010')).toBe(true)
    expect(sameAddress('http://[::1]:4010', 'HTTP://LOCALHOST:4010')).toBe(true)
    expect(sameAddress('http://localhost:4011', 'http://127.0.0.1:4010')).toBe(false)
    expect(sameAddress('https://localhost:4010', 'http://localhost:4010')).toBe(false)
    expect(sameAddress('https://api.example.com/a', 'https://api.example.com/b')).toBe(false)
    expect(sameAddress(42, 'https://api.example.com')).toBe(false)
  })
})
