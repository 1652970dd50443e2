import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  CONTENT_SECURITY_POLICY,
  DEV_CONTENT_SECURITY_POLICY,
  META_CONTENT_SECURITY_POLICY,
} from '#main/content-security-policy.ts'

function parse(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  )
}

describe('the content security policy', () => {
  const policies = {
    header: CONTENT_SECURITY_POLICY,
    meta: META_CONTENT_SECURITY_POLICY,
    dev: DEV_CONTENT_SECURITY_POLICY,
  }

  it.each(Object.entries(policies))(
    '%s: scripts come from the app only, never inline or eval; WebAssembly compiles for the decoders',
    (_name, policy) => {
      const directives = parse(policy)
      expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"])
      // three's Draco loader makes its decoder workers from blob: addresses (see the policy).
      expect(directives.get('worker-src')).toEqual(["'self'", 'blob:'])
      expect(directives.get('default-src')).toEqual(["'self'"])
      expect(policy).not.toMatch(/'unsafe-eval'/)
      expect(directives.get('object-src')).toEqual(["'none'"])
      expect(directives.get('base-uri')).toEqual(["'none'"])
      expect(directives.get('form-action')).toEqual(["'none'"])
    },
  )

  it('header: is the strict policy', () => {
    const directives = parse(CONTENT_SECURITY_POLICY)
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline')
    expect(directives.get('style-src')).toEqual(["'self'"])
    expect(directives.get('connect-src')).toEqual(["'self'"])
    // The app's own and inlined pictures (the list's thumbnails are a path of the app's origin
    // that main answers) and blobs of pictures main fetched through its guard; never the network,
    // https included: an address a sheet names (loopback, the office network) is not the page's
    // to call.
    expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:'])
    expect(directives.get('frame-ancestors')).toEqual(["'none'"])
  })

  it('meta: is the header policy without frame-ancestors, which a meta tag cannot carry', () => {
    const header = parse(CONTENT_SECURITY_POLICY)
    header.delete('frame-ancestors')
    expect(parse(META_CONTENT_SECURITY_POLICY)).toEqual(header)
  })

  it('dev: relaxes styles and the dev server connection only', () => {
    const dev = parse(DEV_CONTENT_SECURITY_POLICY)
    const header = parse(CONTENT_SECURITY_POLICY)
    expect(dev.get('style-src')).toEqual(["'self'", "'unsafe-inline'"])
    expect(dev.get('connect-src')).toEqual(["'self'", 'ws:', 'http://localhost:*'])
    for (const name of ['style-src', 'connect-src']) {
      dev.delete(name)
      header.delete(name)
    }
    expect(dev).toEqual(header)
  })

  it("matches the meta tag of the renderer's index.html", () => {
    const html = readFileSync(new URL('../../../src/renderer/index.html', import.meta.url), 'utf8')
    const tags = [...html.matchAll(/<meta\s[^>]*http-equiv="Content-Security-Policy"[^>]*>/gi)]
    expect(tags).toHaveLength(1)
    const content = /\scontent="([^"]*)"/i.exec(tags[0]![0])?.[1]
    expect(content).toBe(META_CONTENT_SECURITY_POLICY)
  })
})
