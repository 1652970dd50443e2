import { describe, expect, it } from 'vitest'
import { sampleRows } from '#renderer/features/import/read-sheet.ts'

describe('the mapping screen’s sample rows', () => {
  it('keep the rows that give a column one of its first three values, so a column filled further down shows them', () => {
    // A Wix export: products' rows first, the shop's codes on the variant rows below them. The
    // tryout saw "sku (empty)" beside "Use as barcode" though 42 rows held a code.
    const rows = [
      ['p1', 'Product', 'Ring', ''],
      ['p2', 'Product', 'Print', ''],
      ['p3', 'Product', 'Poster', ''],
      ['p3', 'Variant', '', ''],
      ['p4', 'Product', 'Mug', ''],
      ['p4', 'Variant', '', 'MUG-RED'],
      ['p4', 'Variant', '', 'MUG-BLUE'],
      ['p5', 'Product', 'Cap', ''],
      ['p5', 'Variant', '', 'CAP-NAVY'],
      ['p5', 'Variant', '', 'CAP-GREY'],
    ]
    const kept = sampleRows(rows)
    const values = (column: number) =>
      kept
        .map((row) => row[column]!)
        .filter((value) => value !== '')
        .slice(0, 3)
    expect(values(3)).toEqual(['MUG-RED', 'MUG-BLUE', 'CAP-NAVY'])
    expect(values(2)).toEqual(['Ring', 'Print', 'Poster'])
    // Only rows that give something: not the tenth, whose code is a fourth.
    expect(kept).toHaveLength(6)
    expect(kept).not.toContainEqual(['p5', 'Variant', '', 'CAP-GREY'])
  })
})
