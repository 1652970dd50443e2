import { z } from './zod.ts'
import { lazily } from '../lazily.ts'
import { boolean, item, list, number, section, slots, text, url } from './field.ts'

/**
 * One SKU of the bulk upload, field for field as the contract's tables list it. Suggestions come
 * from the live service's public docs; every enumeration stays open text.
 */

const vector = (title: string, help: string, step: number) =>
  section(
    { title, description: help },
    {
      x: number({ title: `${title} X`, step }),
      y: number({ title: `${title} Y`, step }),
      z: number({ title: `${title} Z`, step }),
    },
  )

const meta = (title: string, examples?: readonly string[]) => text({ title, examples, expected: false })

export const EFFECT_ASSETS_2D_SLOTS = 7

function buildSkuSchema() {
  return z.looseObject({
    orgId: text({ title: 'Organization ID', description: 'May be left empty.', allowEmpty: true }),
    category: text({ title: 'Category', examples: ['eyewear', 'makeup', 'jewellery', 'accessories'] }),
    subCategory: text({
      title: 'Sub-category',
      examples: ['sunglasses', 'eyeglasses', 'necklace', 'earrings'],
    }),
    isActive: boolean({ title: 'Active', description: 'Whether the product is live for try-on.' }),
    status: text({ title: 'Status', examples: ['DRAFT', 'PUBLISHED'] }),
    productName: text({ title: 'Product name' }),
    productImage: url({
      title: 'Product image',
      description: 'Web address of the product photo.',
      showsImage: true,
    }),
    brand: text({ title: 'Brand' }),
    barcode: text({ title: 'Barcode', description: 'Kept as text so leading zeros survive.' }),
    actionUrl: url({
      title: 'Action link',
      description: 'Where the try-on sends the shopper, such as the product page. May be left empty.',
      allowEmpty: true,
    }),
    version: text({ title: 'Version', description: 'Version-number style text, such as 1.0.0.' }),
    arEffect: section(
      { title: 'AR effect' },
      {
        transform: section(
          { title: 'Transform' },
          {
            position: vector(
              'Position',
              'Offset of the 3D model from its anchor. The contract gives no unit; the preview reads metres.',
              0.001,
            ),
            rotation: vector(
              'Rotation',
              'Rotation of the 3D model around each axis. The contract gives no unit; the preview reads degrees.',
              0.5,
            ),
          },
        ),
        envSettings: section(
          { title: 'Environment' },
          {
            tileX: number({ title: 'Tile X', step: 1 }),
            tileY: number({ title: 'Tile Y', step: 1 }),
            intensity: number({
              title: 'Intensity',
              description: 'Brightness of the environment lighting.',
              step: 0.1,
            }),
            fieldOfView: text({
              title: 'Field of view',
              description: 'Camera field of view, such as 30deg. Present on some SKUs only.',
              examples: ['30deg', '45deg', 'auto'],
              expected: false,
            }),
            toneMapping: text({ title: 'Tone mapping', examples: ['aces', 'neutral', 'agx', 'commerce'] }),
            shadowSoftness: number({ title: 'Shadow softness', step: 0.05 }),
            shadowIntensity: number({ title: 'Shadow intensity', step: 0.05 }),
            environmentImage: url({
              title: 'Environment image',
              description: 'Web address of the environment (lighting) image. Present on some SKUs only.',
              expected: false,
            }),
            useDefaultEnvironment: boolean({
              title: 'Use default environment',
              description: 'Light the model with the default environment instead of an image.',
              expected: false,
            }),
          },
        ),
        effectAssets2D: slots(
          {
            title: '2D effect assets',
            description: `Exactly ${EFFECT_ASSETS_2D_SLOTS} slots; each is empty or holds an asset object (its shape is not documented).`,
            length: EFFECT_ASSETS_2D_SLOTS,
          },
          item({ title: '2D asset' }, {}),
        ),
        effectAssets3D: list(
          { title: '3D effect assets', description: 'The 3D models of the try-on effect.' },
          item(
            { title: '3D asset' },
            {
              id: text({ title: 'Asset ID' }),
              url: url({
                title: 'Model address',
                description: 'Web address of the 3D model (such as a .glb file).',
              }),
            },
          ),
        ),
      },
    ),
    meta: section(
      { title: 'Product details', description: 'Fit and frame details; any subset may be filled.' },
      {
        age: meta('Age group', ['adult', 'kids']),
        gender: meta('Gender', ['unisex', 'female', 'male']),
        frameShape: meta('Frame shape', ['aviator', 'round', 'rectangle', 'square', 'cat-eye', 'oval']),
        frameSize: meta('Frame size', ['small', 'medium', 'large']),
        rimType: meta('Rim type', ['full-rim', 'half-rim', 'rimless']),
        material: meta('Material', ['metal', 'acetate', 'plastic', 'titanium']),
        frameWidth: meta('Frame width'),
        lensWidth: meta('Lens width'),
        lensHeight: meta('Lens height'),
        bridge: meta('Bridge width'),
        temple: meta('Temple length'),
        eyeLens: meta('Lens type', ['polarized', 'gradient', 'mirrored', 'clear', 'photochromic']),
        lensColorCode: meta('Lens colour code'),
        lensColorDescription: meta('Lens colour description'),
        multifocalCompatible: meta('Multifocal compatible', ['yes', 'no']),
        dimensions: section(
          { title: 'Dimensions', expected: false },
          {
            unit: text({ title: 'Dimension unit', examples: ['mm', 'cm', 'in'] }),
            width: text({ title: 'Width' }),
            height: text({ title: 'Height' }),
            length: text({ title: 'Length' }),
          },
        ),
      },
      z.string(),
    ),
  })
}

/**
 * The contract's SKU, built on its first use: building every field's schema takes tens of
 * milliseconds, which the window's start need not pay (issue #37).
 */
export const skuSchema = lazily(buildSkuSchema)

function buildBulkUploadRequestSchema() {
  return z.looseObject({ skus: z.array(skuSchema()) })
}

export const bulkUploadRequestSchema = lazily(buildBulkUploadRequestSchema)

/** A SKU as written: every listed field optional, unknown fields kept. */
export type Sku = z.input<ReturnType<typeof skuSchema>>
export type BulkUploadRequest = z.input<ReturnType<typeof bulkUploadRequestSchema>>
