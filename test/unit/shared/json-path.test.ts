import { describe, expect, it } from 'vitest'
import { getAt, parsePath, setAt } from '#shared/json-path.ts'

describe('json paths', () => {
  it('parses dotted paths with list positions', () => {
    expect(parsePath('arEffect.effectAssets3D.0.url')).toEqual(['arEffect', 'effectAssets3D', 0, 'url'])
    expect(parsePath('')).toEqual([])
  })

  it('writes only the path, creating objects and lists on the way', () => {
    const document: Record<string, unknown> = { keep: { me: 1 } }
    setAt(document, ['arEffect', 'effectAssets3D', 0, 'url'], 'https://x.test/a.glb')
    expect(document).toEqual({
      keep: { me: 1 },
      arEffect: { effectAssets3D: [{ url: 'https://x.test/a.glb' }] },
    })
    expect(getAt(document, ['arEffect', 'effectAssets3D', 0, 'url'])).toBe('https://x.test/a.glb')
    expect(getAt(document, ['missing', 'deeper'])).toBeUndefined()
  })

  it('removes a key or a list entry when given undefined, and creates nothing for it', () => {
    const document: Record<string, unknown> = { a: { b: 1, c: 2 }, list: ['x', 'y', 'z'] }
    setAt(document, ['a', 'b'], undefined)
    setAt(document, ['list', 1], undefined)
    setAt(document, ['nothing', 'here'], undefined)
    expect(document).toEqual({ a: { c: 2 }, list: ['x', 'z'] })
  })
})
