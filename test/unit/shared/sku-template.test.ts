import { describe, expect, it } from 'vitest'
import { getAt, parsePath } from '#shared/json-path.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { fillMissingDefaults, newSkuPayload, setWithSectionDefaults } from '#shared/schema/sku-template.ts'
import { validateSku } from '#shared/validation/validate.ts'
import full from '../../fixtures/sku-eyewear-full.json'

const template = newSkuPayload()
const ENVIRONMENT = template.arEffect!.envSettings!

/** Errors and warnings together: what the list's badge counts. */
const problems = (payload: unknown) => {
  const { errors, warnings } = validateSku(payload)
  return errors.length + warnings.length
}

/** A draft as a sheet without AR columns leaves it: the product, nothing of the effect. */
const productOnly = (): Record<string, unknown> => ({
  productName: 'Aviator Gold',
  brand: 'Northwind Optics',
  barcode: '8901000000001',
})

function set(payload: Record<string, unknown>, path: string, value: unknown) {
  setWithSectionDefaults(payload, parsePath(path), value)
  return payload
}

describe('newSkuPayload', () => {
  it('is valid and a fresh copy each time', () => {
    expect(validateSku(newSkuPayload()).errors).toEqual([])
    const one = newSkuPayload()
    one.arEffect!.envSettings!.intensity = 9
    expect(newSkuPayload().arEffect!.envSettings!.intensity).toBe(1)
  })
})

describe('setWithSectionDefaults', () => {
  it('makes an absent section from the template, with the value set in it', () => {
    const payload = { ...productOnly(), arEffect: { effectAssets3D: [] } }
    set(payload, 'arEffect.envSettings.intensity', 2)
    expect(payload.arEffect).toEqual({ effectAssets3D: [], envSettings: { ...ENVIRONMENT, intensity: 2 } })
  })

  it('makes every absent section on the way, each from the template', () => {
    const payload = set(productOnly(), 'arEffect.envSettings.intensity', 2)
    expect(payload.arEffect).toEqual({
      ...template.arEffect,
      envSettings: { ...ENVIRONMENT, intensity: 2 },
    })
  })

  it('changes nothing of a present section but the one value', () => {
    const payload = { arEffect: { envSettings: { tileX: 3, fieldOfView: '30deg' } } }
    set(payload, 'arEffect.envSettings.intensity', 2)
    expect(payload).toEqual({ arEffect: { envSettings: { tileX: 3, fieldOfView: '30deg', intensity: 2 } } })
  })

  it('replaces a value the template has with the one set, not the other way round', () => {
    const payload = set(productOnly(), 'arEffect.transform.position.y', 0.012)
    expect(getAt(payload, parsePath('arEffect.transform'))).toEqual({
      position: { x: 0, y: 0.012, z: 0 },
      rotation: { x: 0, y: 0, z: 0 },
    })
  })

  it('gives a section that is null or text where one belongs the template too (it is replaced either way)', () => {
    const payload = { arEffect: { envSettings: null } } as Record<string, unknown>
    set(payload, 'arEffect.envSettings.intensity', 2)
    expect(getAt(payload, parsePath('arEffect.envSettings'))).toEqual({ ...ENVIRONMENT, intensity: 2 })
  })

  it('makes a section the template keeps empty as setAt does', () => {
    expect(set(productOnly(), 'meta.frameShape', 'round').meta).toEqual({ frameShape: 'round' })
    expect(set(productOnly(), 'meta.dimensions.unit', 'mm').meta).toEqual({ dimensions: { unit: 'mm' } })
  })

  it('creates nothing when removing a value', () => {
    const payload = productOnly()
    set(payload, 'arEffect.envSettings.intensity', undefined)
    expect(payload).toEqual(productOnly())
    const withEnvironment = { arEffect: { envSettings: { intensity: 2, tileX: 1 } } }
    set(withEnvironment, 'arEffect.envSettings.intensity', undefined)
    expect(withEnvironment).toEqual({ arEffect: { envSettings: { tileX: 1 } } })
  })

  it('sets a top-level value as setAt does', () => {
    expect(set(productOnly(), 'brand', 'Contoso')).toEqual({ ...productOnly(), brand: 'Contoso' })
  })

  it('shares nothing with the template or between drafts', () => {
    const one = set(productOnly(), 'arEffect.envSettings.intensity', 2)
    const two = set(productOnly(), 'arEffect.envSettings.intensity', 3)
    expect(getAt(one, parsePath('arEffect.envSettings'))).not.toBe(
      getAt(two, parsePath('arEffect.envSettings')),
    )
    expect(getAt(one, parsePath('arEffect.envSettings.intensity'))).toBe(2)
    expect(newSkuPayload().arEffect!.envSettings!.intensity).toBe(1)
  })

  it.each([
    'arEffect.envSettings.intensity',
    'arEffect.envSettings.tileX',
    'arEffect.envSettings.shadowSoftness',
    'arEffect.transform.position.x',
    'arEffect.transform.rotation.z',
  ])('never leaves a draft with more problems than before: %s', (path) => {
    for (const before of [
      productOnly(),
      { ...productOnly(), arEffect: {} },
      { ...productOnly(), arEffect: { transform: {} } },
      { ...productOnly(), arEffect: { envSettings: { tileX: 2 } } },
      structuredClone(full) as Record<string, unknown>,
    ]) {
      const after = set(structuredClone(before), path, 2)
      expect(problems(after), JSON.stringify(before)).toBeLessThanOrEqual(problems(before))
    }
  })
})

describe('fillMissingDefaults', () => {
  it('fills an empty object with the whole template, one path per top-level value', () => {
    const sku: Record<string, unknown> = {}
    expect(fillMissingDefaults(sku)).toEqual([
      'orgId',
      'status',
      'isActive',
      'actionUrl',
      'version',
      'arEffect',
      'meta',
    ])
    expect(sku).toEqual(newSkuPayload())
  })

  it('fills inside present sections key by key, naming each value at the highest level filled', () => {
    const sku: Record<string, unknown> = {
      ...productOnly(),
      orgId: 'org-1',
      isActive: true,
      actionUrl: 'https://shop.example.com/p/1',
      version: '2.0.0',
      meta: { frameShape: 'round' },
      arEffect: {
        envSettings: { intensity: 2, fieldOfView: '30deg' },
        effectAssets2D: [],
        effectAssets3D: [],
      },
    }
    expect(fillMissingDefaults(sku)).toEqual([
      'status',
      'arEffect.transform',
      'arEffect.envSettings.tileX',
      'arEffect.envSettings.tileY',
      'arEffect.envSettings.toneMapping',
      'arEffect.envSettings.shadowSoftness',
      'arEffect.envSettings.shadowIntensity',
    ])
    expect(sku.arEffect).toEqual({
      transform: template.arEffect!.transform,
      envSettings: { ...ENVIRONMENT, intensity: 2, fieldOfView: '30deg' },
      effectAssets2D: [],
      effectAssets3D: [],
    })
    expect(sku.meta).toEqual({ frameShape: 'round' })
    expect(sku).toMatchObject({ ...productOnly(), orgId: 'org-1', status: 'DRAFT', version: '2.0.0' })
  })

  it('fills a nested section partly present', () => {
    const sku: Record<string, unknown> = { arEffect: { transform: { position: { y: 0.5 } } } }
    const filled = fillMissingDefaults(sku)
    expect(filled).toEqual(
      expect.arrayContaining([
        'arEffect.transform.position.x',
        'arEffect.transform.position.z',
        'arEffect.transform.rotation',
        'arEffect.envSettings',
        'arEffect.effectAssets2D',
        'arEffect.effectAssets3D',
      ]),
    )
    expect(filled).not.toContain('arEffect.transform.position.y')
    expect(filled).not.toContain('arEffect')
    expect(getAt(sku, parsePath('arEffect.transform.position'))).toEqual({ x: 0, y: 0.5, z: 0 })
  })

  it('never replaces a present value, even null, empty or of the wrong type', () => {
    const sku: Record<string, unknown> = {
      status: null,
      isActive: 'yes',
      orgId: '',
      meta: 'none',
      arEffect: {
        transform: [],
        envSettings: { intensity: 'high', tileX: null },
        effectAssets2D: [{ url: 'x' }],
      },
    }
    const before = structuredClone(sku)
    const filled = fillMissingDefaults(sku)
    expect(filled).not.toEqual(expect.arrayContaining(['status']))
    for (const path of [
      'status',
      'isActive',
      'orgId',
      'meta',
      'arEffect.transform',
      'arEffect.envSettings.intensity',
      'arEffect.envSettings.tileX',
      'arEffect.effectAssets2D',
    ]) {
      expect(getAt(sku, parsePath(path)), path).toEqual(getAt(before, parsePath(path)))
      expect(filled, path).not.toContain(path)
    }
    // A list is taken whole or not at all: a present one is not padded to the template's length.
    expect(getAt(sku, parsePath('arEffect.effectAssets2D'))).toEqual([{ url: 'x' }])
    expect(filled).toEqual([
      'actionUrl',
      'version',
      'arEffect.envSettings.tileY',
      'arEffect.envSettings.toneMapping',
      'arEffect.envSettings.shadowSoftness',
      'arEffect.envSettings.shadowIntensity',
      'arEffect.effectAssets3D',
    ])
  })

  it('fills nothing in a complete SKU, and keeps fields the contract does not name', () => {
    const sku = { ...structuredClone(full), collectionIds: ['summer-26'] } as Record<string, unknown>
    const before = structuredClone(sku)
    expect(fillMissingDefaults(sku)).toEqual([])
    expect(sku).toEqual(before)
  })

  it('counts a key holding undefined as absent', () => {
    const sku: Record<string, unknown> = { ...newSkuPayload(), status: undefined }
    expect(fillMissingDefaults(sku)).toEqual(['status'])
    expect(sku.status).toBe('DRAFT')
  })

  it('leaves what it filled unshared between SKUs', () => {
    const one: Record<string, unknown> = {}
    const two: Record<string, unknown> = {}
    fillMissingDefaults(one)
    fillMissingDefaults(two)
    ;(one as Sku).arEffect!.envSettings!.intensity = 5
    expect((two as Sku).arEffect!.envSettings!.intensity).toBe(1)
  })

  it('leaves a draft with no more problems than before', () => {
    // Not `{}`: no draft, but no SKU either, which is its one problem (validate.ts).
    for (const sku of [
      productOnly(),
      { ...productOnly(), arEffect: { envSettings: { intensity: 2 } } },
      { arEffect: { transform: { position: { y: 'x' } } } },
    ]) {
      const before = problems(sku)
      const filled = structuredClone(sku) as Record<string, unknown>
      fillMissingDefaults(filled)
      expect(problems(filled), JSON.stringify(sku)).toBeLessThanOrEqual(before)
    }
  })
})
