import { describe, expect, it } from 'vitest'
import { nestsDeeperThan } from '#shared/json-depth.ts'
import { JsonItemReader, JsonReadError, type JsonRoot } from '#shared/json-items.ts'
import { fixture } from './contract-fixtures.ts'

/** Reads `text` in stretches of `size` characters: the items handed over, and the root. */
function readAll(text: string, size: number): { items: unknown[]; root: JsonRoot | undefined } {
  const reader = new JsonItemReader()
  const items: unknown[] = []
  if (text === '') items.push(...reader.push('', true))
  for (let at = 0; at < text.length; at += size)
    items.push(...reader.push(text.slice(at, at + size), at + size >= text.length))
  return { items, root: reader.root }
}

function refusal(text: string, size = text.length || 1): JsonReadError {
  try {
    readAll(text, size)
  } catch (error) {
    if (error instanceof JsonReadError) return error
    throw error
  }
  throw new Error('the text was accepted')
}

const SIZES = [1, 2, 7, 64, 100_000]
const TRICKY = [
  fixture('sku-eyewear-full.json'),
  { productName: 'Brackets ] } [ { in "quotes" and \\ back\\slashes\\', barcode: '\\' },
  { productName: 'Unicode é 💙 \u2028', nested: { list: [[], {}, [1, [2, [3]]]] } },
  { n: -1.5e-7, t: true, f: false, z: null, big: 1.7976931348623157e308, s: '' },
]

describe('JsonItemReader: items as JSON.parse reads them, whatever the stretches', () => {
  it.each(SIZES)('a list, a bulk request and other documents, in stretches of %i', (size) => {
    const list = JSON.stringify(TRICKY, null, 2)
    expect(readAll(list, size)).toEqual({ items: JSON.parse(list), root: { shape: 'list' } })

    const bulk = JSON.stringify({ before: { skus: 'not this' }, skus: TRICKY, after: [1, { x: ']' }] })
    expect(readAll(bulk, size)).toEqual({ items: TRICKY, root: { shape: 'wrapped' } })

    for (const document of [TRICKY[0], { skus: 'not a list', x: 1 }, 'aviator', 42, null, []]) {
      const text = ` ${JSON.stringify(document)}\n`
      const read = readAll(text, size)
      if (Array.isArray(document)) expect(read).toEqual({ items: [], root: { shape: 'list' } })
      else expect(read).toEqual({ items: [], root: { shape: 'whole', document } })
    }
  })

  it('an object with its own fields and a duplicate key is read as JSON.parse reads it (the last one wins)', () => {
    const text = '{"productName": "A", "productName": "B", "__proto__": {"x": 1}, "skus": 3, "skus": 4}'
    expect(readAll(text, 5).root).toEqual({ shape: 'whole', document: JSON.parse(text) })
  })

  it('a second "skus" after the list of SKUs is refused, naming where', () => {
    const error = refusal('{"skus": [{"a": 1}],\n "skus": []}')
    expect(error.code).toBe('second-list')
    expect(error.message).toContain('at position 30 (line 2 column 10)')
  })
})

describe('JsonItemReader: malformed text, in JSON.parse’s words and at the place in the whole text', () => {
  it.each([
    '{\n  "productName": "Aviator",\n}\n',
    '[{"a":1} {"b":2}]',
    '{"a" 1}',
    '{"a":1 "b":2}',
    '{1:2}',
    '[{"a":1}]x',
    '[{"a":1,}]',
    '[{"a":"\u0001"}]',
    '[{"a":1}',
    '"abc',
    '[\n  {"a": 1},\n  {"b": [1, 2], "c" 3}\n]',
  ])('%j', (text) => {
    let expected = ''
    try {
      JSON.parse(text)
    } catch (error) {
      expected = (error as Error).message
    }
    for (const size of SIZES) expect(refusal(text, size)).toMatchObject({ code: 'syntax', message: expected })
  })

  it('where JSON.parse names no position, the value it was reading is named', () => {
    expect(refusal('[\n  {"a": 1},\n  {"a": x}\n]').message).toBe(
      `Unexpected token 'x', "{"a": x}" is not valid JSON, in the value at position 16 (line 3 column 3)`,
    )
    expect(refusal('[1,]').message).toBe("Unexpected token ']' in JSON at position 3 (line 1 column 4)")
  })

  it('an empty text, or one of spaces, is said to be empty', () => {
    expect(refusal('').code).toBe('empty')
    expect(refusal(' \n\t ').code).toBe('empty')
  })
})

describe('JsonItemReader: the nesting limit, checked while reading', () => {
  const nested = (levels: number) => `[${'{"a":'.repeat(levels - 2)}[]${'}'.repeat(levels - 2)}]`

  it.each([99, 100, 101, 5000])('%i levels: refused exactly when nestsDeeperThan says', (levels) => {
    const text = nested(levels)
    const deep = levels > 100
    expect(nestsDeeperThan(JSON.parse(text))).toBe(deep)
    if (deep) expect(refusal(text, 13).code).toBe('too-deep')
    else expect(readAll(text, 13).items).toHaveLength(1)
  })

  it('the depth of a bulk request’s items counts the object and the list around them', () => {
    const bulk = (levels: number) => `{"skus": [${'['.repeat(levels - 2)}${']'.repeat(levels - 2)}]}`
    expect(nestsDeeperThan(JSON.parse(bulk(100)))).toBe(false)
    expect(readAll(bulk(100), 3).items).toHaveLength(1)
    expect(nestsDeeperThan(JSON.parse(bulk(101)))).toBe(true)
    expect(refusal(bulk(101)).code).toBe('too-deep')
  })
})
