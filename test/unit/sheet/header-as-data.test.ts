import { describe, expect, it } from 'vitest'
import { matchColumns } from '#shared/sheet/columns.ts'
import { headerAsData } from '#shared/sheet/header-as-data.ts'
import { parseCsvText } from '#shared/sheet/csv.ts'

const said = (csv: string) => headerAsData(matchColumns(parseCsvText(csv).headers))

describe('a first row that reads as data', () => {
  it('is said when no cell names a field and several are values: a real list of lipstick shades had no header', () => {
    // The list's first lines (brand, shade number, shade name, R, G, B), as it was saved.
    expect(said('medora ,568 matte,epic night ,150,40,78\nloreal,800,Matte-caron,206,134,135\n')).toBe(
      'No cell of the first row names a field, and 3 look like values ("150", "40", "78"): the first row is read as the header',
    )
    expect(
      said('Aviator Gold,4006381333931,https://cdn.example.com/a.jpg,#B8860B\nRound Blue,7612345000299,,\n'),
    ).toMatch(/^No cell of the first row names a field, and 3 look like values \("4006381333931", /)
  })

  it('is not said of a header, however few of its words the app knows', () => {
    expect(said('Product name,EAN,Brand\nAviator,4006381333931,Northwind\n')).toBeUndefined()
    // Words the app does not know, and no values.
    expect(said('商品名,ブランド,カテゴリ\nサングラス,Northwind,eyewear\n')).toBeUndefined()
    // One value among many words: a "2024" column is a header too.
    expect(said('Model,Colour,Finish,Season,2024\nAviator,Gold,Matte,SS,yes\n')).toBeUndefined()
    // A shop's code names something: the file has a header.
    expect(said('SKU,150,40\nA-1,2,3\n')).toBeUndefined()
  })
})
