import { describe, expect, it } from 'vitest'
import { leaves } from '#shared/schema/catalogue.ts'
import { contractJsonSchemas } from '#shared/schema/json-schema.ts'
import { appCatalogue, skuCatalogue } from '#shared/validation/validate.ts'

type JsonSchema = Record<string, unknown>

const schemas = contractJsonSchemas() as Record<string, JsonSchema>
// Keys of the field helpers' words that only this app reads; none may reach the exported schema.
const LOCAL_KEYS = ['kind', 'expected', 'allowEmpty', 'min', 'length']

/** Every schema node inside `schema` (not the property-name maps that hold them). */
function schemaNodes(schema: unknown): JsonSchema[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return []
  const node = schema as JsonSchema
  const children: unknown[] = []
  for (const key of ['properties', '$defs', 'definitions', 'patternProperties']) {
    if (node[key]) children.push(...Object.values(node[key] as JsonSchema))
  }
  for (const key of ['items', 'additionalProperties', 'not', 'contains']) children.push(node[key])
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    children.push(...((node[key] as unknown[]) ?? []))
  return [node, ...children.flatMap(schemaNodes)]
}

/** The schema node of a catalogue path (`*` = list item), looking through `anyOf` (optional, nullable). */
function nodeAt(root: JsonSchema, path: string): JsonSchema[] {
  let candidates = [root]
  for (const segment of path.split('.')) {
    candidates = candidates
      .flatMap((node) => [node, ...((node.anyOf as JsonSchema[]) ?? [])])
      .map((node) =>
        segment === '*'
          ? (node.items as JsonSchema)
          : (node.properties as Record<string, JsonSchema>)?.[segment],
      )
      .filter((node): node is JsonSchema => node !== undefined)
  }
  return candidates.flatMap((node) => [node, ...((node.anyOf as JsonSchema[]) ?? [])])
}

describe('the JSON Schema export', () => {
  it('has every contract document, as JSON Schema 2020-12 objects', () => {
    expect(Object.keys(schemas).sort()).toEqual(
      ['app-create-request', 'app-create-response', 'bulk-upload-request', 'sku'].sort(),
    )
    for (const schema of Object.values(schemas)) {
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
      expect(schema.type).toBe('object')
      expect(JSON.parse(JSON.stringify(schema))).toEqual(schema)
    }
  })

  it.each(Object.keys(schemas))('%s carries none of the catalogue’s internal keys', (name) => {
    for (const node of schemaNodes(schemas[name])) {
      for (const key of LOCAL_KEYS) expect(node, `${name} has "${key}"`).not.toHaveProperty(key)
    }
  })

  it.each([
    ['sku', skuCatalogue()],
    ['app-create-request', appCatalogue()],
  ] as const)('%s carries the catalogue’s title at every described field', (name, catalogue) => {
    for (const leaf of leaves(catalogue)) {
      const titles = nodeAt(schemas[name] as JsonSchema, leaf.path).map((node) => node.title)
      expect(titles, leaf.path).toContain(leaf.meta.title)
    }
  })

  it('carries descriptions and examples', () => {
    const sku = schemas.sku as JsonSchema
    expect(nodeAt(sku, 'productImage')[0]).toMatchObject({ description: 'Web address of the product photo.' })
    expect(nodeAt(sku, 'category')[0]?.examples).toEqual(expect.arrayContaining(['eyewear', 'makeup']))
    expect(nodeAt(sku, 'status')[0]?.examples).toEqual(expect.arrayContaining(['DRAFT', 'PUBLISHED']))
    const font = nodeAt(
      schemas['app-create-request'] as JsonSchema,
      'appConfig.ui_config.appearance.typography.font',
    )
    expect(font[0]?.examples).toContain('Inter')
  })

  it('marks every URL field of the SKU with format uri', () => {
    const urlLeaves = leaves(skuCatalogue()).filter((leaf) => leaf.meta.kind === 'url')
    expect(urlLeaves.map((leaf) => leaf.path)).toEqual([
      'productImage',
      'actionUrl',
      'arEffect.envSettings.environmentImage',
      'arEffect.effectAssets3D.*.url',
    ])
    for (const leaf of urlLeaves) {
      const formats = nodeAt(schemas.sku as JsonSchema, leaf.path).map((node) => node.format)
      expect(formats, leaf.path).toContain('uri')
    }
  })

  it('keeps unknown fields allowed, and meta values as text', () => {
    const sku = schemas.sku as JsonSchema
    expect(sku.additionalProperties).not.toBe(false)
    expect(nodeAt(sku, 'arEffect')[0]?.additionalProperties).not.toBe(false)
    expect(nodeAt(sku, 'meta')[0]?.additionalProperties).toEqual({ type: 'string' })
  })

  it('accepts colours in either case, as the app does (a pattern cannot carry an i flag)', () => {
    const [colour] = nodeAt(
      schemas['app-create-request']!,
      'appConfig.ui_config.appearance.theme.configuration.primaryColor',
    ).filter((node) => typeof node.pattern === 'string')
    const pattern = new RegExp(colour!.pattern as string)
    for (const value of ['#1F2937', '#1f2937', '#FFF', '#ffffff80'])
      expect(pattern.test(value), value).toBe(true)
    expect(pattern.test('#12345')).toBe(false)
  })

  it('requires no field, as the contract marks none as required', () => {
    expect(schemas.sku?.required ?? []).toEqual([])
    expect(schemas['app-create-request']?.required ?? []).toEqual([])
  })

  it('describes the bulk request as a list of the same SKU', () => {
    const bulk = schemas['bulk-upload-request'] as JsonSchema
    expect(nodeAt(bulk, 'skus.*')[0]?.properties).toEqual((schemas.sku as JsonSchema).properties)
  })
})
