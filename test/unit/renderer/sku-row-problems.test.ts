import { describe, expect, it } from 'vitest'
import {
  fieldTitle,
  problemsSummary,
  rowProblems,
  sectionOf,
} from '#renderer/features/skus/list/row-problems.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'

/** A sound SKU, but for what `change` does to it. */
function sku(change: (payload: Record<string, unknown>) => void = () => {}): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    ...newSkuPayload(),
    productName: 'Aviator Classic',
    barcode: '8901000000019',
    brand: 'Northwind Optics',
    category: 'eyewear',
    subCategory: 'sunglasses',
    productImage: 'https://images.example.com/aviator.png',
  }
  change(payload)
  return payload
}

describe('a list row’s problems', () => {
  it('names each error’s field and the editor section that holds it, in the validator’s words', () => {
    const problems = rowProblems(
      sku((payload) => {
        payload.productImage = 'not a link'
        const arEffect = structuredClone(payload.arEffect) as { envSettings: Record<string, unknown> }
        arEffect.envSettings.intensity = 'high'
        payload.arEffect = arEffect
      }),
    )
    expect(problems.errors).toEqual([
      {
        path: 'productImage',
        field: 'Product image',
        where: 'Product',
        message:
          'Product image must be a web address starting with http:// or https://, not the text "not a link"',
      },
      {
        path: 'arEffect.envSettings.intensity',
        field: 'Intensity',
        where: 'AR effect › Environment',
        message: 'Intensity must be a number, not the text "high"',
      },
    ])
    expect(problems.missing).toEqual([])
    expect(problemsSummary(problems)).toBe('2 errors')
  })

  it('lists the fields not filled by title and section, without repeating “is missing”', () => {
    const problems = rowProblems(
      sku((payload) => {
        delete payload.brand
        delete payload.subCategory
      }),
    )
    expect(problems.errors).toEqual([])
    expect(problems.missing).toEqual([
      { path: 'subCategory', field: 'Sub-category', where: 'Product', message: '' },
      { path: 'brand', field: 'Brand', where: 'Product', message: '' },
    ])
    expect(problemsSummary(problems)).toBe('2 fields not filled')
  })

  it('says errors and fields not filled together, and when there are none', () => {
    const problems = rowProblems(
      sku((payload) => {
        payload.barcode = 8901000000011
        delete payload.brand
      }),
    )
    expect(problemsSummary(problems)).toBe('1 error and 1 field not filled')
    expect(problemsSummary(rowProblems(sku()))).toBe('No errors or fields not filled')
  })

  it('says a barcode’s wrong check digit as a warning of its own, in the validator’s words', () => {
    // The PrestaShop sample's EAN-13 (test/fixtures/sheets/exports/real), whose check digit is wrong.
    const problems = rowProblems(
      sku((payload) => {
        payload.barcode = '1234567890123'
        delete payload.brand
      }),
    )
    expect(problems.missing.map((problem) => problem.path)).toEqual(['brand'])
    expect(problems.warnings).toEqual([
      {
        path: 'barcode',
        field: 'Barcode',
        where: 'Product',
        message: 'The check digit of this EAN-13 should be 8, not 3',
      },
    ])
    expect(problemsSummary(problems)).toMatch(/^1 field .+ and 1 warning$/)
  })

  it('names fields inside lists by their position, and the draft itself', () => {
    expect(fieldTitle('arEffect.effectAssets3D.0.url')).toBe('Model address of 3D asset 1')
    expect(sectionOf('arEffect.effectAssets3D.0.url')).toBe('AR effect › 3D effect assets')
    expect(fieldTitle('arEffect.effectAssets2D.3')).toBe('2D asset 4')
    expect(sectionOf('arEffect.effectAssets2D.3')).toBe('AR effect › 2D effect assets')
    expect(fieldTitle('')).toBe('The draft')
    expect(sectionOf('')).toBe('')
    const notSku = rowProblems({ something: 'else' })
    expect(notSku.errors[0]).toMatchObject({ path: '', field: 'The draft', where: '' })
  })
})
