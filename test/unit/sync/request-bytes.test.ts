import { describe, expect, it } from 'vitest'
import { bodyBytes, utf8Length } from '#shared/sync/request-bytes.ts'
import { halves, namedPositions, splitRejected } from '#shared/sync/split.ts'

describe('request bytes', () => {
  it.each([
    '',
    'plain ascii',
    'é',
    'Größe 52 €',
    '😀 emoji',
    'lone \ud800 surrogate',
    '\u0080\u07ff\u0800\uffff',
  ])('counts %j as UTF-8 does', (text) => {
    expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'))
  })

  it('a body that cannot be JSON counts 0', () => {
    const cycle: Record<string, unknown> = {}
    cycle.self = cycle
    expect(bodyBytes(cycle)).toBe(0)
    expect(bodyBytes({ skus: ['é'] })).toBe(Buffer.byteLength('{"skus":["é"]}'))
  })
})

describe('splitting', () => {
  it('halves, the first the larger', () => {
    expect(halves([1, 2, 3, 4, 5])).toEqual([
      [1, 2, 3],
      [4, 5],
    ])
  })

  it('reads only skus.N paths within the batch', () => {
    const problems = [
      { path: 'skus.3.barcode', message: '' },
      { path: 'skus.3.brand', message: '' },
      { path: 'skus.9', message: '' },
      { path: 'skus.12.x', message: '' },
      { path: 'skus', message: '' },
      { path: 'xskus.1', message: '' },
    ]
    expect(namedPositions(problems, 10)).toEqual([3, 9])
  })

  it('named items alone, the rest together; nothing named or everything named: halves', () => {
    expect(splitRejected([0, 1, 2, 3], [{ path: 'skus.2.a', message: '' }])).toEqual([[0, 1, 3], [2]])
    expect(splitRejected([0, 1, 2, 3], undefined)).toEqual([
      [0, 1],
      [2, 3],
    ])
    const all = [0, 1].map((i) => ({ path: `skus.${i}.a`, message: '' }))
    expect(splitRejected([0, 1], all)).toEqual([[0], [1]])
  })
})
