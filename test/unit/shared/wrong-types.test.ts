import { describe, expect, it } from 'vitest'
import { leaves, type FieldNode } from '#shared/schema/catalogue.ts'
import type { FieldKind } from '#shared/schema/field.ts'
import { describeValue } from '#shared/validation/messages.ts'
import type { ValidationResult } from '#shared/validation/problem.ts'
import { appCatalogue, skuCatalogue, validateAppRequest, validateSku } from '#shared/validation/validate.ts'
import { fixture, getAt, setAt } from './contract-fixtures.ts'

type Document = 'sku' | 'app'

const BASE = { sku: 'sku-eyewear-full.json', app: 'app-create-request.json' } as const
const VALIDATE: Record<Document, (value: unknown) => ValidationResult> = {
  sku: validateSku,
  app: validateAppRequest,
}

function validateWith(document: Document, path: string, value: unknown): ValidationResult {
  return VALIDATE[document](setAt(fixture(BASE[document]), path, value))
}

/** One wrong value must give one error, at exactly that path, naming the field and the value. */
function expectOneError(result: ValidationResult, path: string, title: string, value: unknown) {
  expect(result.errors.map((error) => error.path)).toEqual([path])
  const message = result.errors[0]?.message ?? ''
  expect(message.startsWith(`${title} `), `"${message}" should start with "${title}"`).toBe(true)
  expect(message.endsWith(`, not ${describeValue(value)}`), message).toBe(true)
}

// Realistic mistakes (what a spreadsheet or a hand edit produces), one per row: document, path,
// wrong value, and the catalogue title the message must use.
const CASES: [Document, string, unknown, string][] = [
  ['sku', 'productName', 42, 'Product name'],
  ['sku', 'orgId', 9003, 'Organization ID'],
  ['sku', 'barcode', 8901234567890, 'Barcode'],
  ['sku', 'version', 1, 'Version'],
  ['sku', 'isActive', 'true', 'Active'],
  ['sku', 'productImage', 'catalog/aviator.png', 'Product image'],
  ['sku', 'actionUrl', 'shop.example.com/p/aviator', 'Action link'],
  ['sku', 'arEffect', 'none', 'AR effect'],
  ['sku', 'arEffect.transform', [], 'Transform'],
  ['sku', 'arEffect.transform.position.y', '0.012', 'Position Y'],
  ['sku', 'arEffect.transform.rotation.z', null, 'Rotation Z'],
  ['sku', 'arEffect.envSettings.intensity', 'high', 'Intensity'],
  ['sku', 'arEffect.envSettings.tileX', true, 'Tile X'],
  ['sku', 'arEffect.envSettings.fieldOfView', 30, 'Field of view'],
  ['sku', 'arEffect.envSettings.toneMapping', null, 'Tone mapping'],
  ['sku', 'arEffect.envSettings.environmentImage', 'studio-soft.hdr', 'Environment image'],
  ['sku', 'arEffect.envSettings.useDefaultEnvironment', 'no', 'Use default environment'],
  ['sku', 'arEffect.effectAssets2D', null, '2D effect assets'],
  ['sku', 'arEffect.effectAssets2D.3', 'overlay.png', '2D asset'],
  ['sku', 'arEffect.effectAssets2D.6', [], '2D asset'],
  ['sku', 'arEffect.effectAssets3D', {}, '3D effect assets'],
  ['sku', 'arEffect.effectAssets3D.0', 'frame.glb', '3D asset'],
  ['sku', 'arEffect.effectAssets3D.0.id', 7, 'Asset ID'],
  ['sku', 'arEffect.effectAssets3D.0.url', 'models/aviator.glb', 'Model address'],
  ['sku', 'meta', 'adult', 'Product details'],
  ['sku', 'meta.lensWidth', 58, 'Lens width'],
  ['sku', 'meta.multifocalCompatible', false, 'Multifocal compatible'],
  ['sku', 'meta.dimensions', '137x50x140', 'Dimensions'],
  ['sku', 'meta.dimensions.width', 137, 'Width'],
  ['sku', 'meta.dimensions.unit', null, 'Dimension unit'],
  ['app', 'name', 1, 'App name'],
  ['app', 'expire_images_after_days', '365', 'Image retention (days)'],
  ['app', 'expire_images_after_days', 1.5, 'Image retention (days)'],
  ['app', 'meta', [], 'App meta'],
  ['app', 'report_config.logo', 'northwind-logo.png', 'Logo'],
  ['app', 'report_config.report_titles.subtitle', 2, 'Report subtitle'],
  ['app', 'report_config.overallSkinScore.skinAge', 'yes', 'Skin age'],
  ['app', 'report_config.skinConcerns.concerns.dark_circles', 1, 'Dark circles'],
  ['app', 'report_config.features.beautyGptChatbot.show', 'false', 'Show the beauty chatbot'],
  ['app', 'report_config.features.productRecommendation.addToCart', 0, 'Show add to cart'],
  ['app', 'appConfig.ui_config.advance.allowGlobalWishlist', 'true', 'Global wishlist'],
  ['app', 'appConfig.ui_config.general.languages', 'en', 'Languages'],
  ['app', 'appConfig.ui_config.general.languages.0', 44, 'Language'],
  ['app', 'appConfig.ui_config.general.watermark.allowWaterMark', null, 'Show watermark'],
  ['app', 'appConfig.ui_config.screens.loadingScreen.infoText.1', false, 'Info text'],
  [
    'app',
    'appConfig.ui_config.screens.instructionScreen.banner.mobile.0.url',
    'mobile-1.png',
    'Mobile banner image',
  ],
  ['app', 'appConfig.ui_config.screens.instructionScreen.content.instructions.1.text', 3, 'Instruction text'],
  ['app', 'appConfig.ui_config.appearance.theme.configuration.primaryColor', 'teal', 'Primary colour'],
  ['app', 'appConfig.ui_config.appearance.theme.configuration.iconColor', '#1F293', 'Icon colour'],
  ['app', 'appConfig.ui_config.customCode.popUpOverrides.quit', 'no', 'Override the quit pop-up'],
  [
    'app',
    'appConfig.ui_config.customCode.screenOverrides.cameraFailed',
    1,
    'Override the camera failed screen',
  ],
  ['app', 'appConfig.meta', 'none', 'Experience meta'],
  ['app', 'appConfig.domains', 'shop.example.com', 'Allowed domains'],
]

describe('a value of the wrong type', () => {
  it.each(CASES)('%s %s = %j is one error at that path, naming "%s"', (document, path, value, title) => {
    expectOneError(validateWith(document, path, value), path, title, value)
  })

  it('in a list item, the message says which item, counting from 1 as people do', () => {
    const result = validateWith('sku', 'arEffect.effectAssets3D.0.url', 'models/aviator.glb')
    expect(result.errors[0]?.message).toContain('Model address of 3D asset 1 must be a web address')
  })

  it('the example of the usage text reads as documented', () => {
    const result = validateWith('sku', 'arEffect.envSettings.intensity', 'high')
    expect(result.errors).toEqual([
      { path: 'arEffect.envSettings.intensity', message: 'Intensity must be a number, not the text "high"' },
    ])
  })
})

// A value that is wrong for every field of a kind.
const WRONG: Record<FieldKind, unknown> = {
  text: 42,
  url: 42,
  color: 42,
  number: 'x',
  integer: 'x',
  boolean: 'x',
  section: 'x',
  list: 'x',
  slots: 'x',
  json: 'x',
}

/** The leaf's path with list positions taken from the fixture (its first item). */
const concrete = (leaf: FieldNode) => leaf.path.replaceAll('*', '0')

describe('every leaf of the catalogue', () => {
  const rows = (document: Document, catalogue: FieldNode) =>
    leaves(catalogue).map((leaf) => [document, concrete(leaf), leaf.meta.kind, leaf.meta.title] as const)

  it('has a value in the fixtures, so the sweep below reaches every field', () => {
    for (const [document, path] of [...rows('sku', skuCatalogue()), ...rows('app', appCatalogue())]) {
      expect(getAt(fixture(BASE[document]), path), `${document} ${path}`).not.toBeUndefined()
    }
  })

  it.each([...rows('sku', skuCatalogue()), ...rows('app', appCatalogue())])(
    '%s %s (%s): a wrong type is one error at that path, naming "%s"',
    (document, path, kind, title) => {
      expectOneError(validateWith(document, path, WRONG[kind]), path, title, WRONG[kind])
    },
  )
})
