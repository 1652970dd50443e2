import { describe, expect, it } from 'vitest'
import { BARCODE_PART_MIN, draftTerms, searchTerms, termsMatch } from '#shared/search-terms.ts'

const BARCODES = ['4006381333931', '036000291452', '8901000010050', '96385074', '1005', '10051005100510']

describe('search words', () => {
  it('finds a barcode by every run of four digits or more inside it, and by nothing it does not hold', () => {
    for (const barcode of BARCODES) {
      const terms = draftTerms('Aviator Gold', 'Northwind', barcode)
      for (let start = 0; start < barcode.length; start++) {
        for (let end = start + BARCODE_PART_MIN; end <= barcode.length; end++) {
          const part = barcode.slice(start, end)
          expect(termsMatch(terms, [part]), `${part} in ${barcode}`).toBe(true)
        }
      }
    }
    // Every four digits that are not in a barcode: none finds it.
    for (const barcode of BARCODES) {
      const terms = draftTerms('Aviator Gold', 'Northwind', barcode)
      for (let n = 0; n < 10_000; n++) {
        const part = String(n).padStart(4, '0')
        if (!barcode.includes(part)) expect(termsMatch(terms, [part]), `${part} in ${barcode}`).toBe(false)
      }
    }
  })

  it('finds other words by their start, as before, and a barcode by its start from one digit on', () => {
    const terms = draftTerms('Aviator Gold 58', 'Northwind Optics', '4006381333931')
    expect(termsMatch(terms, ['avia', 'north'])).toBe(true)
    expect(termsMatch(terms, ['viator'])).toBe(false)
    expect(termsMatch(terms, ['4'])).toBe(true)
    expect(termsMatch(terms, ['400', 'gold'])).toBe(true)
    // Three digits inside are below the minimum: only a start finds them.
    expect(termsMatch(terms, ['638'])).toBe(false)
  })

  it('finds the digits of a name or a brand by their start only, as any word', () => {
    const terms = draftTerms('Model 210056', 'Studio 1005', '4006381333931')
    expect(termsMatch(terms, ['1005'])).toBe(true)
    expect(termsMatch(terms, ['0056'])).toBe(false)
    expect(termsMatch(terms, ['2100'])).toBe(true)
  })

  it('keeps the index small: a 13-digit barcode adds five parts, a code of three digits none', () => {
    const words = searchTerms('Aviator Gold', 'Northwind', '4006381333931')
    expect(draftTerms('Aviator Gold', 'Northwind', '4006381333931')).toEqual([
      ...words,
      '#4006381333931',
      '#06381333931',
      '#381333931',
      '#1333931',
      '#33931',
    ])
    expect(draftTerms('Aviator', 'Northwind', '123')).toEqual(searchTerms('Aviator', 'Northwind', '123'))
  })
})
