import { describe, expect, it } from 'vitest'
import { conflictFields, mergeFields } from '#shared/team/conflict-fields.ts'

// Two desks' versions of one frame, compared field by field to settle their conflict (issue #41).
const ana = {
  payload: {
    productName: 'Aviator 58 Silver',
    brand: 'Lumen',
    attributes: { lensWidth: 58, color: 'silver' },
  },
  deleted: false,
}
const ben = {
  payload: {
    productName: 'Aviator 58 Gold',
    brand: 'Lumen',
    attributes: { lensWidth: 58 },
    category: 'sunglasses',
  },
  deleted: false,
}
const gone = { payload: {}, deleted: true }

describe('the fields two versions of a draft disagree on', () => {
  it('are the leaves that differ, each with every version’s value; a deletion disagrees on none', () => {
    expect(conflictFields([ana, ben, gone])).toEqual([
      { path: 'productName', values: ['Aviator 58 Silver', 'Aviator 58 Gold', undefined] },
      { path: 'attributes.color', values: ['silver', undefined, undefined] },
      { path: 'category', values: [undefined, 'sunglasses', undefined] },
    ])
    expect(conflictFields([gone, ana])).toEqual([])
  })

  it('merge into one version with each chosen field taken from another, absent fields removed', () => {
    const merged = mergeFields(
      [ana, ben],
      0,
      new Map([
        ['productName', 1],
        ['attributes.color', 1],
        ['category', 1],
      ]),
    )
    expect(merged).toEqual({
      productName: 'Aviator 58 Gold',
      brand: 'Lumen',
      attributes: { lensWidth: 58 },
      category: 'sunglasses',
    })
    // The versions themselves are left as they were.
    expect(ana.payload.attributes).toEqual({ lensWidth: 58, color: 'silver' })
  })
})
