import { describe, expect, it } from 'vitest'
import { isPublicAddress, literalAddress } from '#node/net/local-addresses.ts'

describe('isPublicAddress', () => {
  it.each([['8.8.8.8'], ['151.101.1.69'], ['2606:4700:4700::1111']])('%s is public', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  )

  it.each([
    ['127.0.0.1', 'this computer'],
    ['127.8.9.10', 'this computer, anywhere in 127/8'],
    ['::1', 'this computer over IPv6'],
    ['::ffff:127.0.0.1', 'this computer as an IPv4-mapped IPv6 address'],
    ['10.1.2.3', 'a private network'],
    ['172.16.0.1', 'a private network'],
    ['192.168.1.1', 'a home router'],
    ['169.254.169.254', 'a cloud metadata service (link-local)'],
    ['fe80::1', 'link-local IPv6'],
    ['fd12:3456::1', 'unique-local IPv6'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'the unspecified address, which reaches this computer'],
    ['224.0.0.1', 'multicast'],
    ['2002:7f00:1::', '6to4 wrapping 127.0.0.1'],
    ['64:ff9b::7f00:1', 'NAT64 wrapping 127.0.0.1'],
    ['not-an-address', 'not an address at all'],
  ])('%s is local (%s)', (address) => expect(isPublicAddress(address)).toBe(false))
})

describe('literalAddress', () => {
  it('reads the address out of a URL host that is one, and nothing out of a name', () => {
    expect(literalAddress('127.0.0.1')).toBe('127.0.0.1')
    expect(literalAddress('[::1]')).toBe('::1')
    expect(literalAddress('localhost')).toBeUndefined()
    expect(literalAddress('cdn.example.com')).toBeUndefined()
  })
})
