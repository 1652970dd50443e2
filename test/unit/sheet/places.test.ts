import { describe, expect, it } from 'vitest'
import { placeOf, sayRow, sayRows, type RowNumbering } from '#shared/sheet/places.ts'

/**
 * Where a row is, as a person looks for it (issue #37): "Row 3" was the third data row, line 4 of
 * the spreadsheet, so a person looking for it landed on the wrong product.
 */
const PAIR: RowNumbering = {
  pair: {
    products: { name: 'products_import.csv', rows: 7 },
    combinations: { name: 'combinations_import.csv' },
  },
}

describe('a row as a person finds it', () => {
  it("a sheet's data row 3 is line 4: the header is line 1", () => {
    expect(sayRow(3, 'lines')).toBe('line 4')
    expect(sayRow(3, 'lines', true)).toBe('Line 4')
    expect(placeOf(1, 'lines')).toEqual({ noun: 'line', n: 2 })
  })

  it('a JSON file or a feed has no lines: its items keep their numbers', () => {
    expect(sayRow(3, 'items')).toBe('item 3')
    expect(sayRow(3, 'items', true)).toBe('Item 3')
  })

  it("PrestaShop's pair names the file and its line there", () => {
    expect(sayRow(7, PAIR)).toBe('products_import.csv line 8')
    expect(sayRow(8, PAIR)).toBe('combinations_import.csv line 2')
    // A file's name keeps its spelling at the start of a sentence.
    expect(sayRow(8, PAIR, true)).toBe('combinations_import.csv line 2')
    expect(sayRows([6, 7, 8, 9], PAIR)).toBe(
      'products_import.csv lines 7, 8; combinations_import.csv lines 2, 3',
    )
  })

  // A tryout read "items 1,563, 1,573, 1,594" as more items than it named.
  it('a place is numbered as the spreadsheet shows it; a count has its thousands separated', () => {
    expect(sayRow(3_000, 'lines')).toBe('line 3001')
    expect(sayRows([1, 2_000, 2_999], 'lines', { shown: 2, total: 4_002 })).toBe(
      'lines 2, 2001 and 4,000 more',
    )
    expect(sayRows([5], 'lines')).toBe('line 6')
    expect(sayRows([5], 'lines', { total: 3 })).toBe('lines 6 and 2 more')
  })
})
