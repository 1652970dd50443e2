import { describe, expect, it } from 'vitest'
import { BULK_UPLOAD_PATH, CREATE_APP_PATH, endpointUrl } from '#shared/service/endpoints.ts'

describe('endpointUrl', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://gateway.example.com/catalog//', 'https://gateway.example.com/catalog'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
  ])('puts the operation under %s', (base, prefix) => {
    expect(endpointUrl(base, BULK_UPLOAD_PATH)).toBe(prefix + BULK_UPLOAD_PATH)
    expect(endpointUrl(base, CREATE_APP_PATH)).toBe(prefix + CREATE_APP_PATH)
  })

  // A profile check refuses these; the join must not depend on it. Appended as text, the
  // operation's path would land in the fragment or query and the request go to the base's path.
  it.each([
    'http://127.0.0.1:2375/containers/create#',
    'http://127.0.0.1:2375/containers/create?',
    'http://127.0.0.1:2375/containers/create?name=x',
    'http://127.0.0.1:2375/containers/create#top',
  ])('keeps the operation in the path whatever follows %s', (base) => {
    const url = new URL(endpointUrl(base, BULK_UPLOAD_PATH)!)
    expect(url.pathname).toBe(`/containers/create${BULK_UPLOAD_PATH}`)
    expect(url.search).toBe('')
    expect(url.hash).toBe('')
    expect(url.href).not.toContain('#')
    expect(url.href).not.toContain('?')
  })

  it('gives no address for a base that is not one', () => {
    expect(endpointUrl('not an address', BULK_UPLOAD_PATH)).toBeUndefined()
  })
})
