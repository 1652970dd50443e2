import { describe, expect, it } from 'vitest'
import { diffJson } from '#shared/json-diff.ts'

describe('diffJson', () => {
  it('finds nothing between equal documents, whatever their key order', () => {
    expect(diffJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([])
  })

  it('names each changed, added and removed leaf by its path', () => {
    const sent = { productName: 'Aviator', arEffect: { transform: { position: { x: 0 } } }, tags: ['a'] }
    const now = { arEffect: { transform: { position: { x: 0.5 } } }, tags: ['a', 'b'], brand: 'Ray' }
    expect(diffJson(sent, now)).toEqual([
      { path: 'productName', kind: 'removed', before: 'Aviator' },
      { path: 'arEffect.transform.position.x', kind: 'changed', before: 0, after: 0.5 },
      { path: 'tags.1', kind: 'added', after: 'b' },
      { path: 'brand', kind: 'added', after: 'Ray' },
    ])
  })

  it('reads a change of type as one change', () => {
    expect(diffJson({ x: 1 }, { x: '1' })).toEqual([{ path: 'x', kind: 'changed', before: 1, after: '1' }])
    expect(diffJson({ x: { y: 1 } }, { x: [1] })).toEqual([
      { path: 'x', kind: 'changed', before: { y: 1 }, after: [1] },
    ])
  })
})
