import { describe, expect, it } from 'vitest'
import { normaliseAddress } from '#shared/asset-checks/address.ts'
import { assetRefs } from '#shared/asset-checks/asset-refs.ts'
import { DEFAULT_BUDGETS, validateBudgets, type AssetBudgets } from '#shared/asset-checks/budgets.ts'
import { judge } from '#shared/asset-checks/judge.ts'
import type { AssetOutcome, ModelFacts } from '#shared/asset-checks/results.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'

describe('assetRefs: which assets a SKU names, by field', () => {
  it('names the product image, the environment, the 2D assets and the models, in the contract’s order', () => {
    const sku = {
      productImage: 'https://cdn.test/p.jpg',
      arEffect: {
        envSettings: { environmentImage: 'https://cdn.test/studio.hdr' },
        effectAssets2D: [
          null,
          'https://cdn.test/a.png',
          { url: 'https://cdn.test/b.png', src: 'https://cdn.test/ignored.png' },
          { src: 'https://cdn.test/c.png', label: 'not an address', size: 3 },
          {},
          null,
          null,
        ],
        effectAssets3D: [
          { id: 'frame', url: 'https://cdn.test/frame.glb' },
          { id: 'lenses', url: '   ' },
          { id: 'none' },
          { id: 'temples', url: 'temples.glb' },
        ],
      },
    }
    expect(assetRefs(sku)).toEqual([
      { field: 'productImage', url: 'https://cdn.test/p.jpg', kind: 'product-image' },
      {
        field: 'arEffect.envSettings.environmentImage',
        url: 'https://cdn.test/studio.hdr',
        kind: 'environment-image',
      },
      { field: 'arEffect.effectAssets2D.1', url: 'https://cdn.test/a.png', kind: '2d-asset' },
      { field: 'arEffect.effectAssets2D.2.url', url: 'https://cdn.test/b.png', kind: '2d-asset' },
      { field: 'arEffect.effectAssets2D.3.src', url: 'https://cdn.test/c.png', kind: '2d-asset' },
      { field: 'arEffect.effectAssets3D.0.url', url: 'https://cdn.test/frame.glb', kind: 'model' },
      // Not a web address, but named: checked, and refused there, rather than passed over.
      { field: 'arEffect.effectAssets3D.3.url', url: 'temples.glb', kind: 'model' },
    ])
  })

  it('a new draft names nothing, and neither does what is not a SKU', () => {
    expect(assetRefs(newSkuPayload())).toEqual([])
    expect(assetRefs(null)).toEqual([])
    expect(assetRefs({ productImage: 42, arEffect: { effectAssets3D: 'x' } })).toEqual([])
  })
})

describe('validateBudgets', () => {
  it('fills what is missing with the defaults', () => {
    const { budgets, problems } = validateBudgets({ triangles: { recommended: 50_000 } })
    expect(problems).toEqual([])
    expect(budgets).toEqual({ ...DEFAULT_BUDGETS, triangles: { recommended: 50_000, maximum: 500_000 } })
    expect(validateBudgets({}).budgets).toEqual(DEFAULT_BUDGETS)
  })

  it('names each wrong budget and gives none back', () => {
    const result = validateBudgets({
      modelBytes: { recommended: 0, maximum: 10 },
      drawCalls: { recommended: 20, maximum: 10 },
      textureSize: 2048,
      pictureSize: { recommended: 1.5 },
      colours: {},
    })
    expect(result.budgets).toBeUndefined()
    expect(result.problems).toEqual([
      '"colours" is not a budget (known: modelBytes, triangles, drawCalls, textureSize, pictureBytes, pictureSize).',
      'Model size (bytes) (modelBytes.recommended) must be a whole number of at least 1, not 0.',
      'Draw calls a model (drawCalls): the recommended 20 is above the maximum 10.',
      'Texture size (pixels, longer side) (textureSize) must be {recommended, maximum}.',
      'Picture size (pixels, longer side) (pictureSize.recommended) must be a whole number of at least 1, not 1.5.',
    ])
    expect(validateBudgets([]).problems).toEqual(['Budgets must be an object of named budgets.'])
    // A size's maximum is also what a check downloads at most: bounded.
    expect(validateBudgets({ pictureBytes: { maximum: 500 * 1024 * 1024 } }).problems).toEqual([
      'Picture size (bytes) (pictureBytes.maximum) can be at most 80 MB, the most a check downloads, not 500 MB.',
    ])
  })
})

describe('judge: an outcome for its field, against the budgets', () => {
  const model = (facts: Partial<ModelFacts>): AssetOutcome => ({
    url: 'https://cdn.test/m.glb',
    class: 'model',
    problems: [],
    facts: {
      class: 'model',
      format: 'glb',
      bytes: 1000,
      externalFiles: 0,
      textures: [],
      extensionsUsed: [],
      extensionsRequired: [],
      validator: { version: 'x', errors: 0, warnings: 0, infos: 0, hints: 0 },
      ...facts,
    },
  })
  const budgets: AssetBudgets = { ...DEFAULT_BUDGETS, triangles: { recommended: 100, maximum: 200 } }

  it('within the recommended figure is ok, at it too; over it a warning; over the maximum an error', () => {
    expect(judge(model({ triangles: 100 }), 'model', budgets)).toMatchObject({ status: 'ok', problems: [] })
    expect(judge(model({ triangles: 101 }), 'model', budgets)).toMatchObject({
      status: 'warning',
      problems: [
        { code: 'over-budget-triangles', message: 'The model has 101 triangles, over the recommended 100.' },
      ],
    })
    expect(judge(model({ triangles: 1234 }), 'model', budgets)).toMatchObject({
      status: 'error',
      problems: [
        { code: 'over-budget-triangles', message: 'The model has 1,234 triangles, over the maximum of 200.' },
      ],
    })
    expect(judge(model({ drawCalls: 12 }), 'model', DEFAULT_BUDGETS).problems).toEqual([
      {
        severity: 'warning',
        code: 'over-budget-draw-calls',
        message: 'The model takes 12 draw calls, over the recommended 10.',
      },
    ])
  })

  it('a picture a field does not take is an error; the same picture elsewhere is fine', () => {
    const hdr: AssetOutcome = {
      url: 'https://cdn.test/studio.hdr',
      class: 'picture',
      problems: [],
      facts: {
        class: 'picture',
        bytes: 5000,
        type: 'image/vnd.radiance',
        servedType: '',
        width: 8192,
        height: 4096,
      },
    }
    expect(judge(hdr, 'environment-image', DEFAULT_BUDGETS).problems).toEqual([
      {
        severity: 'warning',
        code: 'over-budget-picture-pixels',
        message: 'The picture is 8192×4096 pixels, over the recommended 4,096 pixels a side.',
      },
    ])
    expect(judge(hdr, 'product-image', DEFAULT_BUDGETS)).toMatchObject({
      status: 'error',
      problems: [
        {
          code: 'wrong-picture-type',
          message:
            'It is a Radiance HDR picture, which a product image cannot be (PNG, JPEG, WebP, GIF, AVIF or SVG).',
        },
        { code: 'over-budget-picture-pixels' },
      ],
    })
  })
})

describe('normaliseAddress: one file, however its address is spelled', () => {
  it('drops the fragment, an empty one too, and keeps a "#" that is part of the path or the query', () => {
    expect(normaliseAddress('HTTPS://CDN.example.com:443/a/./b.glb#top')).toBe(
      'https://cdn.example.com/a/b.glb',
    )
    expect(normaliseAddress(' https://cdn.example.com/b.glb?v=2# ')).toBe('https://cdn.example.com/b.glb?v=2')
    expect(normaliseAddress('https://cdn.example.com/b%23c.glb?d=%23#e#f')).toBe(
      'https://cdn.example.com/b%23c.glb?d=%23',
    )
    expect(normaliseAddress('https://cdn.example.com/b.glb')).toBe('https://cdn.example.com/b.glb')
    expect(normaliseAddress('not an address')).toBeUndefined()
  })
})
