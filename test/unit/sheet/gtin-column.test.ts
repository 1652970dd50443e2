import { describe, expect, it } from 'vitest'
import { parseCsvText } from '#shared/sheet/csv.ts'
import { convertSheet } from '#shared/sheet/rows.ts'

const warningsOf = (csv: string) =>
  convertSheet(parseCsvText(csv)).map((result) =>
    result.warnings
      .filter((warning) => warning.message.includes('is no GTIN'))
      .map((warning) => warning.message),
  )

describe('a barcode that is no GTIN in a column that names one', () => {
  it('is said on its row: a real Meta catalog feed’s gtin column held the shop’s own numbers', () => {
    const csv = [
      'title,gtin,brand',
      'Riesling,GUT100,Liebieg',
      'Sekt,1814,Liebieg',
      'Secco,4006381333931,Liebieg',
    ].join('\n')
    expect(warningsOf(csv)).toEqual([
      [
        'Barcode "GUT100" is no GTIN (8, 12, 13 or 14 digits), though its column names one: check that it is the product’s barcode',
      ],
      [
        'Barcode "1814" is no GTIN (8, 12, 13 or 14 digits), though its column names one: check that it is the product’s barcode',
      ],
      [],
    ])
  })

  it('is not said of a column headed Barcode, nor of a GTIN whose check digit or letter validation already names', () => {
    expect(warningsOf('title,Barcode\nRiesling,GUT100\n')).toEqual([[]])
    // Validation says the check digit is wrong, and the letter O where a 0 belongs.
    expect(warningsOf('title,EAN-13\nA,4006381333932\nB,4OO6381333931\n')).toEqual([[], []])
  })
})
