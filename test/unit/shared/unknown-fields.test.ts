import { describe, expect, it } from 'vitest'
import { validateDocument } from '#shared/validation/document.ts'
import { validateAppRequest, validateSku } from '#shared/validation/validate.ts'
import { deepFreeze, fixture, fixtureNames, setAt } from './contract-fixtures.ts'

// The live service has fields the contract does not name (collectionIds, SSAOSettings, ...):
// they must pass through untouched, and validation must never rewrite what the user wrote.

/** The full SKU with fields the contract does not list, at the root, in arEffect and in meta. */
function skuWithExtras() {
  const sku = fixture('sku-eyewear-full.json')
  setAt(sku, 'collectionIds', ['summer-2026'])
  setAt(sku, 'arEffect.anchor', 'nose-bridge')
  setAt(sku, 'arEffect.envSettings.SSAOSettings', { enabled: true, radius: 0.2 })
  setAt(sku, 'arEffect.envSettings.bloomSettings', { strength: 0.3 })
  setAt(sku, 'arEffect.transform.scale', { x: 1, y: 1, z: 1 })
  setAt(sku, 'arEffect.effectAssets3D.0.lod', 2)
  setAt(sku, 'meta.nosePads', 'adjustable')
  return sku
}

describe('unknown fields', () => {
  it('at the root, in arEffect and in meta (as text) still validate, without warnings', () => {
    expect(validateSku(skuWithExtras())).toEqual({ errors: [], warnings: [] })
  })

  it('in the app request still validate', () => {
    const app = fixture('app-create-request.json')
    setAt(app, 'copilot', {})
    setAt(app, 'report_config.theme', 'dark')
    setAt(app, 'appConfig.ui_config.advance.allowShare', true)
    setAt(app, 'appConfig.ui_config.screens.instructionScreen.banner.web.0.alt', 'A face in good light')
    expect(validateAppRequest(app)).toEqual({ errors: [], warnings: [] })
  })

  it('in meta must be text, as every meta value is; the message names the key', () => {
    const { errors } = validateSku(setAt(skuWithExtras(), 'meta.nosePads', 2))
    expect(errors).toEqual([
      { path: 'meta.nosePads', message: '"nosePads" in Product details must be text, not the number 2' },
    ])
  })

  it('of any type are accepted where the contract leaves values open', () => {
    expect(validateSku(setAt(skuWithExtras(), 'collectionIds', 12)).errors).toEqual([])
  })
})

describe('validation never changes its input', () => {
  it.each(fixtureNames())('%s is deep-equal before and after validation', (name) => {
    const document = fixture(name)
    validateDocument(document)
    expect(document).toEqual(fixture(name))
  })

  it('extra fields and wrong values are neither stripped nor coerced', () => {
    const sku = setAt(setAt(skuWithExtras(), 'arEffect.envSettings.intensity', '1.2'), 'isActive', 'yes')
    const before = structuredClone(sku)
    expect(validateSku(sku).errors).toHaveLength(2)
    expect(sku).toEqual(before)
  })

  it('frozen input validates without a write being attempted', () => {
    const documents = [
      skuWithExtras(),
      [skuWithExtras(), {}],
      { skus: [skuWithExtras()] },
      fixture('app-create-request.json'),
    ]
    for (const document of documents) expect(() => validateDocument(deepFreeze(document))).not.toThrow()
  })

  it('the items of a document report are the input objects themselves, not copies', () => {
    const sku = skuWithExtras()
    const report = validateDocument({ skus: [sku] })
    expect(report.items[0]).toBe(sku)
  })
})
