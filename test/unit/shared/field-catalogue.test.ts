import { describe, expect, it } from 'vitest'
import { findField, leaves, type FieldNode } from '#shared/schema/catalogue.ts'
import { appCatalogue, skuCatalogue } from '#shared/validation/validate.ts'

// Every field of the contract's SKU tables, in the catalogue's path notation (`*` = any list item).
const CONTRACT_SKU_LEAVES = [
  'orgId',
  'category',
  'subCategory',
  'isActive',
  'status',
  'productName',
  'productImage',
  'brand',
  'barcode',
  'actionUrl',
  'version',
  ...['position', 'rotation'].flatMap((vector) =>
    ['x', 'y', 'z'].map((axis) => `arEffect.transform.${vector}.${axis}`),
  ),
  ...[
    'tileX',
    'tileY',
    'intensity',
    'fieldOfView',
    'toneMapping',
    'shadowSoftness',
    'shadowIntensity',
    'environmentImage',
    'useDefaultEnvironment',
  ].map((key) => `arEffect.envSettings.${key}`),
  'arEffect.effectAssets2D.*',
  'arEffect.effectAssets3D.*.id',
  'arEffect.effectAssets3D.*.url',
  ...[
    'age',
    'bridge',
    'gender',
    'temple',
    'eyeLens',
    'rimType',
    'material',
    'frameSize',
    'lensWidth',
    'frameShape',
    'frameWidth',
    'lensHeight',
    'lensColorCode',
    'lensColorDescription',
    'multifocalCompatible',
  ].map((key) => `meta.${key}`),
  ...['unit', 'width', 'height', 'length'].map((key) => `meta.dimensions.${key}`),
]

// The fields the contract says appear on some items only.
const OCCASIONAL = new Set([
  'arEffect.envSettings.fieldOfView',
  'arEffect.envSettings.environmentImage',
  'arEffect.envSettings.useDefaultEnvironment',
])

const LEAF_KINDS = ['text', 'url', 'color', 'number', 'integer', 'boolean', 'json', 'section']

describe.each([
  ['SKU', skuCatalogue()],
  ['app', appCatalogue()],
])('the %s catalogue', (_name, catalogue: FieldNode) => {
  it.each(leaves(catalogue).map((leaf) => [leaf.path, leaf] as const))(
    '%s has its own title',
    (_path, leaf) => {
      expect(leaf.meta.title.trim()).not.toBe('')
      // A field the catalogue does not describe falls back to its key as its title.
      expect(leaf.meta.title).not.toBe(leaf.key)
      expect(LEAF_KINDS).toContain(leaf.meta.kind)
    },
  )

  it('paths are dotted from the root, `*` standing for a list item', () => {
    const visit = (node: FieldNode, parent: string) => {
      for (const child of node.children) {
        expect(child.path).toBe(parent ? `${parent}.${child.key}` : child.key)
        visit(child, child.path)
      }
      if (node.item) {
        expect(node.item.path).toBe(`${node.path}.*`)
        visit(node.item, node.item.path)
      }
    }
    visit(catalogue, '')
  })
})

describe('the SKU catalogue', () => {
  it('holds exactly the contract’s SKU fields', () => {
    expect(
      leaves(skuCatalogue())
        .map((leaf) => leaf.path)
        .sort(),
    ).toEqual([...CONTRACT_SKU_LEAVES].sort())
  })

  // Titles map spreadsheet columns to fields: two fields with one title would make a column ambiguous.
  it('no two leaves share a title, even ignoring case', () => {
    const byTitle = new Map<string, string[]>()
    for (const leaf of leaves(skuCatalogue())) {
      const title = leaf.meta.title.toLowerCase()
      byTitle.set(title, [...(byTitle.get(title) ?? []), leaf.path])
    }
    expect([...byTitle].filter(([, paths]) => paths.length > 1)).toEqual([])
  })

  it('only the occasional fields and the meta fields are not expected', () => {
    for (const leaf of leaves(skuCatalogue())) {
      const occasional = OCCASIONAL.has(leaf.path) || /^meta\.[^.]+$/.test(leaf.path)
      expect(leaf.meta.expected, leaf.path).toBe(!occasional)
    }
  })
})

describe('findField', () => {
  it('finds a field inside a list item by position, as a number or as text', () => {
    for (const position of [0, 2, '2']) {
      const { node, exact } = findField(skuCatalogue(), ['arEffect', 'effectAssets3D', position, 'url'])
      expect(exact).toBe(true)
      expect(node.path).toBe('arEffect.effectAssets3D.*.url')
      expect(node.meta).toMatchObject({ title: 'Model address', kind: 'url' })
    }
  })

  it('finds a 2D slot and a list of text by position', () => {
    expect(findField(skuCatalogue(), ['arEffect', 'effectAssets2D', 6]).node.meta.title).toBe('2D asset')
    const language = findField(appCatalogue(), ['appConfig', 'ui_config', 'general', 'languages', 0])
    expect(language).toMatchObject({ exact: true, node: { path: 'appConfig.ui_config.general.languages.*' } })
  })

  it('finds nested app fields through two lists', () => {
    const path = [
      'appConfig',
      'ui_config',
      'screens',
      'instructionScreen',
      'content',
      'instructions',
      1,
      'text',
    ]
    expect(findField(appCatalogue(), path).node.meta.title).toBe('Instruction text')
  })

  it('stops at the nearest described ancestor for a field the contract does not name', () => {
    expect(findField(skuCatalogue(), ['meta', 'nosePads'])).toMatchObject({
      exact: false,
      node: { path: 'meta' },
    })
    expect(findField(skuCatalogue(), ['arEffect', 'transform', 'scale', 'x'])).toMatchObject({
      exact: false,
      node: { path: 'arEffect.transform' },
    })
  })

  it('the empty path is the document itself', () => {
    expect(findField(skuCatalogue(), [])).toMatchObject({
      exact: true,
      node: { path: '', meta: { title: 'SKU' } },
    })
  })
})
