import { describe, expect, it } from 'vitest'
import { validateDocument } from '#shared/validation/document.ts'
import { skuCatalogue, validateAppRequest, validateSku } from '#shared/validation/validate.ts'
import { deleteAt, fixture, setAt } from './contract-fixtures.ts'

const sku = () => fixture('sku-eyewear-full.json')
const app = () => fixture('app-create-request.json')

// The contract marks no field as required: a missing listed field is worth a look, not a refusal.
describe('a missing listed field', () => {
  it('is a warning, not an error', () => {
    expect(validateSku(deleteAt(sku(), 'brand'))).toEqual({
      errors: [],
      warnings: [{ path: 'brand', message: 'Brand is missing' }],
    })
  })

  it('leaves the item valid in a document report', () => {
    const report = validateDocument([deleteAt(sku(), 'productImage'), sku()])
    expect(report.reports.map((item) => item.errors)).toEqual([[], []])
    expect(report.reports[0]?.warnings.map((warning) => warning.path)).toEqual(['productImage'])
  })

  it.each([
    'arEffect.transform.position.z',
    'arEffect.envSettings.toneMapping',
    'arEffect.effectAssets3D.0.url',
    'meta.dimensions.unit',
  ])('deep inside the SKU: %s', (path) => {
    expect(validateSku(deleteAt(sku(), path)).warnings.map((warning) => warning.path)).toEqual([path])
  })

  it.each([
    'report_config.features',
    'report_config.skinConcerns.concerns.hydration',
    'appConfig.ui_config.advance.allowBack',
    'appConfig.ui_config.screens.instructionScreen.content.instructions.1.text',
  ])('deep inside the app: %s', (path) => {
    const result = validateAppRequest(deleteAt(app(), path))
    expect(result.errors).toEqual([])
    expect(result.warnings.map((warning) => warning.path)).toEqual([path])
  })
})

describe('only the highest missing level is reported', () => {
  it.each(['arEffect', 'arEffect.transform', 'arEffect.envSettings', 'arEffect.transform.rotation'])(
    'a missing %s is one warning, not one per field inside it',
    (path) => {
      expect(validateSku(deleteAt(sku(), path)).warnings.map((warning) => warning.path)).toEqual([path])
    },
  )

  it('an object with one field warns once per other top-level field of the contract, and nothing deeper', () => {
    const topLevel = skuCatalogue()
      .children.filter((field) => field.meta.expected)
      .map((field) => field.key)
    expect(topLevel).toHaveLength(13)
    expect(validateSku({ brand: 'Northwind' }).warnings.map((warning) => warning.path)).toEqual(
      topLevel.filter((key) => key !== 'brand'),
    )
  })

  // A stock sheet's every row said "… is missing" thirteen times beside "this is not a SKU".
  it('an object with none of the fields is not a SKU, and that alone is said', () => {
    expect(validateSku({})).toEqual({
      errors: [{ path: '', message: expect.stringContaining('this is not a SKU') }],
      warnings: [],
    })
  })

  it('a section of the wrong type is one error and no warnings about its fields', () => {
    expect(validateSku(setAt(sku(), 'arEffect', 'none'))).toEqual({
      errors: [expect.objectContaining({ path: 'arEffect' })],
      warnings: [],
    })
  })

  it('an empty 2D slot (null) has nothing to warn about', () => {
    expect(validateSku(sku()).warnings).toEqual([])
  })
})

describe('fields the contract calls occasional do not warn', () => {
  it.each([
    'arEffect.envSettings.fieldOfView',
    'arEffect.envSettings.environmentImage',
    'arEffect.envSettings.useDefaultEnvironment',
  ])('%s', (path) => {
    expect(validateSku(deleteAt(sku(), path)).warnings).toEqual([])
  })

  it('every meta field, dimensions included: meta may be empty', () => {
    expect(validateSku(setAt(sku(), 'meta', {}))).toEqual({ errors: [], warnings: [] })
  })

  it('the meta object itself is a listed SKU field, so leaving it out warns once', () => {
    expect(validateSku(deleteAt(sku(), 'meta')).warnings).toEqual([
      { path: 'meta', message: 'Product details is missing' },
    ])
  })
})
