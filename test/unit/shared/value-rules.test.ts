import { describe, expect, it } from 'vitest'
import { EFFECT_ASSETS_2D_SLOTS } from '#shared/schema/sku.ts'
import { validateAppRequest, validateSku } from '#shared/validation/validate.ts'
import { fixture, setAt } from './contract-fixtures.ts'

const sku = () => fixture('sku-eyewear-full.json')
const app = () => fixture('app-create-request.json')
const errorPaths = (value: unknown) => validateSku(value).errors.map((error) => error.path)

describe('numbers', () => {
  // JSON cannot carry these, but a form or an importer passes values programmatically.
  it.each([
    ['arEffect.envSettings.intensity', Number.NaN],
    ['arEffect.transform.position.x', Number.POSITIVE_INFINITY],
    ['arEffect.envSettings.shadowSoftness', Number.NEGATIVE_INFINITY],
  ])('%s = %s is rejected as not a finite number', (path, value) => {
    const { errors } = validateSku(setAt(sku(), path, value))
    expect(errors).toHaveLength(1)
    expect(errors[0]?.path).toBe(path)
    expect(errors[0]?.message).toMatch(/must be a finite number, not (NaN|Infinity|-Infinity)$/)
  })

  it('zero and negative numbers are fine', () => {
    expect(errorPaths(setAt(sku(), 'arEffect.transform.rotation.x', -2.5))).toEqual([])
    expect(errorPaths(setAt(sku(), 'arEffect.envSettings.shadowIntensity', 0))).toEqual([])
  })

  it('image retention must be a whole number of days, zero or more, and finite', () => {
    const retention = (value: unknown) =>
      validateAppRequest(setAt(app(), 'expire_images_after_days', value)).errors
    expect(retention(0)).toEqual([])
    expect(retention(1095)).toEqual([])
    expect(retention(-1)).toEqual([
      {
        path: 'expire_images_after_days',
        message: 'Image retention (days) must be 0 or more, not the number -1',
      },
    ])
    expect(retention(Number.POSITIVE_INFINITY).map((error) => error.path)).toEqual([
      'expire_images_after_days',
    ])
    expect(retention(Number.NaN).map((error) => error.path)).toEqual(['expire_images_after_days'])
  })
})

describe('empty text', () => {
  it('actionUrl and orgId may be empty', () => {
    expect(errorPaths(setAt(setAt(sku(), 'actionUrl', ''), 'orgId', ''))).toEqual([])
  })

  it('productImage may not be empty, and the message says so', () => {
    const { errors } = validateSku(setAt(sku(), 'productImage', ''))
    expect(errors).toEqual([
      {
        path: 'productImage',
        message: 'Product image must be a web address starting with http:// or https://, not empty text',
      },
    ])
  })

  it('the message of a field that may be empty says it may be left empty', () => {
    const { errors } = validateSku(setAt(sku(), 'actionUrl', 'javascript:alert(1)'))
    expect(errors[0]?.message).toContain('or left empty')
  })

  it.each(['arEffect.envSettings.environmentImage', 'arEffect.effectAssets3D.0.url'])(
    '%s may not be empty either',
    (path) => {
      expect(errorPaths(setAt(sku(), path, ''))).toEqual([path])
    },
  )
})

describe('web addresses', () => {
  const URL_PATHS = [
    'productImage',
    'actionUrl',
    'arEffect.envSettings.environmentImage',
    'arEffect.effectAssets3D.0.url',
  ]
  const REJECTED = [
    'ftp://cdn.example.com/catalog/aviator.png',
    'javascript:alert(1)',
    'data:image/png;base64,iVBORw0KGgo=',
    'file:///home/me/aviator.png',
    'cdn.example.com/catalog/aviator.png',
    'https://',
  ]

  it.each(URL_PATHS.flatMap((path) => REJECTED.map((value) => [path, value])))(
    '%s = %s is rejected',
    (path, value) => {
      expect(errorPaths(setAt(sku(), path, value))).toEqual([path])
    },
  )

  it.each(
    URL_PATHS.flatMap((path) =>
      ['http://cdn.example.com/a.png', 'https://cdn.example.com/a.png?v=2'].map((value) => [path, value]),
    ),
  )('%s = %s is accepted', (path, value) => {
    expect(errorPaths(setAt(sku(), path, value))).toEqual([])
  })

  it.each(URL_PATHS.flatMap((path) => [' ', '\n', '\t'].map((joint) => [path, joint])))(
    '%s holding two addresses joined by %j is refused, saying so',
    (path, joint) => {
      // Squarespace's "Hosted Image URLs", pasted into a JSON file or a field: the URL standard
      // would read it as one address with a space in its path (and drops tabs and line breaks).
      const { errors } = validateSku(
        setAt(sku(), path, `https://a.example/1.jpg${joint}https://a.example/2.jpg`),
      )
      expect(errors).toEqual([
        {
          path,
          message: expect.stringMatching(
            /must be one web address, with no space inside \(two addresses joined, or a space to write as %20\), not the text "https:\/\/a\.example\/1\.jpg\shttps/,
          ),
        },
      ])
    },
  )

  // A real Merchant feed's pictures, each named after its shade with spaces: shortened from the
  // start, all 30 read "https://jchairstudios62.xyz/images/produ…", the space not shown.
  it('a long address is shown around its space', () => {
    const address = 'https://shop.example/images/products/bruna-tavares/BT Skin D30 Foundation.png'
    const { errors } = validateSku(setAt(sku(), 'productImage', address))
    expect(errors.map((error) => error.message)).toEqual([
      'Product image must be one web address, with no space inside (two addresses joined, or a space to write as %20), not the text "…ages/products/bruna-tavares/BT Skin D30 F…"',
    ])
  })

  // A tryout's Thai jewellery sheet, its UTF-8 read as Windows-874 and saved again: every name
  // held C1 control characters, and all 1,041 went to the platform so.
  it('text holding a control character is refused, naming it; tabs and line breaks are text', () => {
    const garbled = 'เน\u0081เธซเธงเธ\u0099เน€เธ\u0087เธดเธ\u0099'
    expect(validateSku(setAt(sku(), 'productName', garbled)).errors).toEqual([
      {
        path: 'productName',
        message:
          'Product name holds a control character (U+0081), which no text has: it was garbled on its way to this file (UTF-8 read in another encoding, then saved), so correct it where it comes from',
      },
    ])
    expect(
      validateSku(setAt(sku(), 'meta.material', 'Gold\u0007')).errors.map((error) => error.path),
    ).toEqual(['meta.material'])
    expect(validateSku(setAt(sku(), 'productName', 'Aviator\tClassic\nSun')).errors).toEqual([])
  })

  it('an address that is not one at all gets only that error, not also the space’s', () => {
    expect(
      validateSku(setAt(sku(), 'productImage', 'not a link')).errors.map((error) => error.message),
    ).toEqual([
      'Product image must be a web address starting with http:// or https://, not the text "not a link"',
    ])
  })

  it.each(['report_config.logo', 'appConfig.ui_config.screens.instructionScreen.banner.web.0.url'])(
    'the app’s %s rejects ftp:// and javascript: too',
    (path) => {
      for (const value of ['ftp://cdn.example.com/logo.png', 'javascript:alert(1)']) {
        expect(validateAppRequest(setAt(app(), path, value)).errors.map((error) => error.path)).toEqual([
          path,
        ])
      }
    },
  )
})

describe('2D effect assets', () => {
  const slots = (entries: unknown) => validateSku(setAt(sku(), 'arEffect.effectAssets2D', entries))

  it(`has exactly ${EFFECT_ASSETS_2D_SLOTS} entries`, () => {
    expect(EFFECT_ASSETS_2D_SLOTS).toBe(7)
    for (const length of [0, 6, 8]) {
      const { errors } = slots(Array.from({ length }, () => null))
      expect(errors).toEqual([
        {
          path: 'arEffect.effectAssets2D',
          message: `2D effect assets must have exactly 7 entries, not a list of ${length}`,
        },
      ])
    }
  })

  it('each entry is null or an object, of any shape since the contract does not show it', () => {
    expect(
      slots([{ url: 'https://cdn.example.com/a.png' }, null, {}, null, { any: [1] }, null, null]).errors,
    ).toEqual([])
  })

  it.each([['overlay.png'], [0], [true], [[]]])('an entry %j is an error at its position', (entry) => {
    const { errors } = slots([null, null, entry, null, null, null, null])
    expect(errors).toEqual([
      expect.objectContaining({
        path: 'arEffect.effectAssets2D.2',
        message: expect.stringContaining('2D asset 3 must be empty (null) or an object'),
      }),
    ])
  })
})

describe('status', () => {
  const statusWarnings = (status: unknown) =>
    validateSku(setAt(sku(), 'status', status)).warnings.filter((warning) => warning.path === 'status')

  it('a status the platform is not known to take is said, and still valid: the contract leaves its values open', () => {
    // A shop's own status, mapped from a sheet's Status column.
    expect(statusWarnings('Enabled')).toEqual([
      {
        path: 'status',
        message:
          'Status “Enabled” is not one the platform is known to take (DRAFT or PUBLISHED): a shop’s own status is not the platform’s',
      },
    ])
    expect(validateSku(setAt(sku(), 'status', 'publish')).errors).toEqual([])
    // In another case, it is still another word to the service.
    expect(statusWarnings('published')).toHaveLength(1)
  })

  it('DRAFT and PUBLISHED, or no status at all, say nothing of it', () => {
    expect(statusWarnings('DRAFT')).toEqual([])
    expect(statusWarnings('PUBLISHED')).toEqual([])
    expect(statusWarnings('')).toEqual([])
  })
})
