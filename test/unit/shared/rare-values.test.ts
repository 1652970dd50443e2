import { describe, expect, it } from 'vitest'
import {
  editDistance,
  MAX_DISTINCT,
  rareValueQuestion,
  rareValuesOf,
  RareValueTally,
  type ValueCount,
} from '#shared/rare-values.ts'

const counts = (entries: Record<string, number>): ValueCount[] =>
  Object.entries(entries).map(([value, count]) => ({ value, count }))

/** What the issue found: typos beside thousands of the right spelling. */
const CATEGORIES = counts({ eyewear: 4_210, Eyewaer: 5, jewellery: 900 })
const SUB_CATEGORIES = counts({ sunglasses: 3_000, sunglases: 3, 'reading glasses': 1_200 })

describe('rare values', () => {
  it('asks whether “Eyewaer” is “eyewear” (two letters swapped, another case) and “sunglases” “sunglasses”', () => {
    expect(rareValuesOf('category', CATEGORIES)).toEqual([
      { field: 'category', value: 'Eyewaer', count: 5, suggestion: 'eyewear', suggestionCount: 4_210 },
    ])
    expect(rareValuesOf('subCategory', SUB_CATEGORIES)).toEqual([
      {
        field: 'subCategory',
        value: 'sunglases',
        count: 3,
        suggestion: 'sunglasses',
        suggestionCount: 3_000,
      },
    ])
  })

  it('asks about “eyeware” (two edits from “eyewear”) as a question, not an error', () => {
    const [rare] = rareValuesOf('category', counts({ eyewear: 4_210, eyeware: 3 }))
    expect(rare).toMatchObject({ value: 'eyeware', suggestion: 'eyewear' })
    expect(rareValueQuestion(rare!)).toBe(
      'Category “eyeware” on 3 rows: did you mean “eyewear” (4,210 rows)?',
    )
  })

  it('asks about a value that differs only in case or accents', () => {
    expect(rareValuesOf('brand', counts({ 'Northwind Optics': 800, 'NORTHWIND OPTICS': 2 }))).toMatchObject([
      { value: 'NORTHWIND OPTICS', suggestion: 'Northwind Optics' },
    ])
    expect(rareValuesOf('brand', counts({ Éclat: 300, Eclat: 4 }))).toMatchObject([
      { value: 'Eclat', suggestion: 'Éclat' },
    ])
  })

  it('leaves alone a field with many different values, such as product names', () => {
    const names: Record<string, number> = {}
    for (let n = 0; n < 400; n++) names[`Aviator ${String.fromCharCode(65 + (n % 26))}${n}`] = 1
    names['Classic Round'] = 40
    names['Classic Roud'] = 1
    expect(rareValuesOf('brand', counts(names))).toEqual([])
    // Past MAX_DISTINCT the tally stops counting the field at all.
    const tally = new RareValueTally()
    for (let row = 1; row <= MAX_DISTINCT + 100; row++) tally.add({ brand: `Brand ${row}` }, row)
    for (let row = 1; row <= 50; row++) tally.add({ brand: 'Northwind' }, row)
    tally.add({ brand: 'Nortwind' }, 9_999)
    expect(tally.rareValues()).toEqual([])
  })

  it('asks nothing of a rare value with no near common one, nor of one near a value almost as rare', () => {
    expect(rareValuesOf('category', counts({ eyewear: 4_210, watches: 4 }))).toEqual([])
    // "Eyewaer" on 5 and "eyewear" on 20: not ten times as many, so no telling which is right.
    expect(rareValuesOf('category', counts({ eyewear: 20, Eyewaer: 5, hats: 30 }))).toEqual([])
    // "active" and "inactive" are words of their own: two edits apart, but short.
    expect(rareValuesOf('status', counts({ active: 900, inactive: 4 }))).toEqual([])
    // Digits differ: a size is no typo of another.
    expect(rareValuesOf('subCategory', counts({ 'Size 38': 300, 'Size 39': 2 }))).toEqual([])
  })

  it('takes rare as at most 5 rows, or half a percent of a large field', () => {
    expect(rareValuesOf('category', counts({ eyewear: 1_000, Eyewaer: 6 }))).toEqual([])
    expect(rareValuesOf('category', counts({ eyewear: 20_000, Eyewaer: 100 }))).toMatchObject([
      { value: 'Eyewaer' },
    ])
  })

  it('counts edits with swaps as one, and stops past the most it is asked for', () => {
    expect(editDistance('eyewaer', 'eyewear', 2)).toBe(1)
    expect(editDistance('eyeware', 'eyewear', 2)).toBe(2)
    expect(editDistance('sunglases', 'sunglasses', 2)).toBe(1)
    expect(editDistance('watches', 'eyewear', 2)).toBe(3)
    expect(editDistance('', 'abc', 5)).toBe(3)
  })

  it('computes only the band near the diagonal, and still gives what the whole table gives', () => {
    // The whole optimal-string-alignment table, as the textbook writes it.
    const whole = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      )
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++) {
          const cost = a[i - 1] === b[j - 1] ? 0 : 1
          d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
            d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
        }
      return d[a.length]![b.length]!
    }
    let seed = 7
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff
    // Four letters, so that swaps, repeats and near misses are common.
    const word = () =>
      Array.from({ length: Math.floor(random() * 8) }, () => 'abcd'[Math.floor(random() * 4)]).join('')
    for (let n = 0; n < 3_000; n++) {
      const [a, b] = [word(), word()]
      for (const max of [0, 1, 2, 3])
        expect(editDistance(a, b, max), `${a} ${b} ${max}`).toBe(Math.min(whole(a, b), max + 1))
    }
  })

  it('tallies a file’s rows and names the first rows of each rare value', () => {
    const tally = new RareValueTally()
    let row = 0
    for (let n = 0; n < 40; n++)
      tally.add({ category: 'eyewear', subCategory: 'sunglasses', brand: 'Northwind' }, ++row)
    for (let n = 0; n < 12; n++) tally.add({ category: 'Eyewaer', subCategory: 'sunglases' }, ++row)
    for (let n = 0; n < 200; n++) tally.add({ category: 'eyewear', subCategory: 'sunglasses' }, ++row)
    const found = tally.rareValues()
    // 12 of 252 rows is more than 5 and more than half a percent: not rare.
    expect(found).toEqual([])
    const small = new RareValueTally()
    for (let n = 1; n <= 60; n++) small.add({ category: n % 20 === 0 ? 'Eyewaer' : 'eyewear' }, n)
    expect(small.rareValues()).toEqual([
      {
        field: 'category',
        value: 'Eyewaer',
        count: 3,
        suggestion: 'eyewear',
        suggestionCount: 57,
        rows: [20, 40, 60],
      },
    ])
  })
})
