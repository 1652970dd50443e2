import { describe, expect, it } from 'vitest'
import { contrastRatio, formatRatio, over, parseHex, toHex6 } from '#shared/apps/colour.ts'
import { newAppPayload } from '#shared/apps/defaults.ts'
import { appRequestFileName, appRequestJson } from '#shared/apps/export.ts'
import { hostNameProblem, isHostName, suggestHost } from '#shared/apps/host-names.ts'
import { describeRetention, retentionChoice } from '#shared/apps/retention.ts'
import { contrastWarnings, fontStack, themeKind } from '#shared/apps/theme.ts'
import { appDraftColumns, validateAppDraft } from '#shared/apps/validate-app-draft.ts'
import { appCreateRequestSchema, SKIN_CONCERNS } from '#shared/schema/app.ts'
import { validateAppRequest } from '#shared/validation/validate.ts'
import { fixture } from './contract-fixtures.ts'

const hex = (value: string) => parseHex(value)!

describe('a new app draft', () => {
  it('is a valid app creation request with the console’s defaults', () => {
    const payload = newAppPayload()
    expect(appCreateRequestSchema().safeParse(payload).error?.issues).toBeUndefined()
    expect(payload).toMatchObject({
      status: 'enabled',
      sdkVersion: '2.0.0',
      algorithmVersion: '1.0.0',
      expire_images_after_days: 365,
      appConfig: {
        ui_config: { general: { languages: ['en'] }, appearance: { typography: { font: 'Inter' } } },
        domains: [],
      },
    })
    const concerns = payload.report_config!.skinConcerns!.concerns!
    expect(Object.keys(concerns)).toEqual([...SKIN_CONCERNS])
    expect(Object.values(concerns).every((on) => on === true)).toBe(true)
  })

  it('names only what a person must add: the app name and the logo', () => {
    const result = validateAppRequest(newAppPayload())
    expect(result.errors).toEqual([])
    expect(result.warnings.map((warning) => warning.path)).toEqual(['name', 'report_config.logo'])
  })

  it('lists every field the contract’s full example has, so nothing is silently left out', () => {
    const keysOf = (value: unknown, prefix = ''): string[] =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.entries(value).flatMap(([key, child]) => [
            `${prefix}${key}`,
            ...keysOf(child, `${prefix}${key}.`),
          ])
        : []
    const example = new Set(keysOf(fixture('app-create-request.json')))
    const defaults = new Set(keysOf(newAppPayload()))
    expect([...example].filter((key) => !defaults.has(key))).toEqual(['name', 'report_config.logo'])
  })

  it('uses colours readable on its own light page', () => {
    expect(contrastWarnings(newAppPayload())).toEqual({ primaryColor: [], iconColor: [], selectionColor: [] })
  })

  it('is a fresh object each time', () => {
    const a = newAppPayload()
    a.appConfig!.domains!.push('x.example.com')
    expect(newAppPayload().appConfig!.domains).toEqual([])
  })
})

describe('colours and contrast', () => {
  it('reads every hex form the contract allows, and nothing else', () => {
    expect(hex('#fff')).toEqual({ r: 255, g: 255, b: 255, a: 1 })
    expect(hex('#0F766E')).toEqual({ r: 15, g: 118, b: 110, a: 1 })
    expect(hex('#00000080').a).toBeCloseTo(128 / 255)
    expect(hex('#f008').a).toBeCloseTo(136 / 255)
    for (const bad of ['teal', '#12', '#12345', 'ffffff', '#gggggg', 42, undefined]) {
      expect(parseHex(bad)).toBeUndefined()
    }
    expect(toHex6(hex('#0f766e80'))).toBe('#0F766E')
  })

  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio(hex('#000'), hex('#fff'))).toBeCloseTo(21, 5)
    expect(contrastRatio(hex('#fff'), hex('#fff'))).toBeCloseTo(1, 5)
    // The textbook pair: #777 on white is just under 4.5:1.
    expect(contrastRatio(hex('#777777'), hex('#ffffff'))).toBeCloseTo(4.48, 2)
    expect(contrastRatio(hex('#ffffff'), hex('#777777'))).toBeCloseTo(4.48, 2)
    // Half-transparent black over white shows as mid grey.
    expect(over(hex('#00000080'), hex('#fff')).r).toBeCloseTo(127, 0)
    expect(formatRatio(4.499)).toBe('4.4:1')
  })

  it('warns about colours shoppers would struggle to see, against the theme’s page', () => {
    const payload = newAppPayload()
    const configuration = payload.appConfig!.ui_config!.appearance!.theme!.configuration!
    configuration.primaryColor = '#7FE0D6'
    configuration.iconColor = '#EEEEEE'
    const warnings = contrastWarnings(payload)
    expect(warnings.primaryColor).toHaveLength(2)
    expect(warnings.primaryColor[0]).toMatch(
      /^1\.\d:1 against its white button text: button labels need at least 4.5:1/,
    )
    expect(warnings.iconColor[0]).toMatch(/against the light page: icons need at least 3:1/)
    expect(warnings.selectionColor).toEqual([])

    // The same light icon is fine on a dark page, and a dark one is not.
    payload.appConfig!.ui_config!.appearance!.theme!.type = 'dark'
    configuration.theme = 'dark'
    expect(themeKind(payload)).toBe('dark')
    expect(contrastWarnings(payload).iconColor).toEqual([])
    configuration.iconColor = '#1F2937'
    expect(contrastWarnings(payload).iconColor[0]).toMatch(/against the dark page/)
  })

  it('does not judge a colour that is not one (validation reports it instead)', () => {
    const payload = newAppPayload()
    payload.appConfig!.ui_config!.appearance!.theme!.configuration!.primaryColor = 'teal'
    expect(contrastWarnings(payload).primaryColor).toEqual([])
    expect(validateAppDraft(payload).errors.map((error) => error.message)).toEqual([
      'Primary colour must be a hex colour such as #0F766E, not the text "teal"',
    ])
  })

  it('turns a font name into a CSS font list that cannot break out of its declaration', () => {
    expect(fontStack('Open Sans')).toBe('"Open Sans", system-ui, sans-serif')
    expect(fontStack('x"; color: red')).toBe('"x color: red", system-ui, sans-serif')
    expect(fontStack(undefined)).toBe('system-ui, sans-serif')
  })
})

describe('allowed domains as host names', () => {
  it.each([
    'shop.example.com',
    'example.com',
    'localhost',
    'xn--bcher-kva.de',
    'a-b.c-d.io',
    '127.0.0.1',
    'SHOP.Example.COM',
  ])('%s is a host name', (value) => {
    expect(hostNameProblem(value)).toBeUndefined()
    expect(isHostName(value)).toBe(true)
  })

  it.each([
    ['', /is empty/],
    [' shop.example.com', /spaces at the start or end/],
    ['shop example.com', /has spaces/],
    ['https://shop.example.com', /host name only \(shop\.example\.com\), without https:\/\//],
    ['shop.example.com/skin', /host name only \(shop\.example\.com\), without a path/],
    ['*.example.com', /wildcard/],
    ['shop.example.com:8080', /without a port/],
    ['me@example.com', /not an e-mail/],
    ['example.com.', /ends with a dot/],
    ['shop..example.com', /two dots/],
    ['-shop.example.com', /starts or ends with a hyphen/],
    ['bücher.de', /xn-- form/],
    ['shop_1.example.com', /letters a–z, digits, hyphens and dots/],
    [`${'a'.repeat(64)}.com`, /longer than 63/],
    [`${'abcdefghi.'.repeat(26)}com`, /at most 253/],
  ])('%j is refused: %s', (value, reason) => {
    expect(hostNameProblem(value)).toMatch(reason)
  })

  it('finds the host name inside a pasted address', () => {
    expect(suggestHost('https://shop.example.com/skin?x=1')).toBe('shop.example.com')
    expect(suggestHost('shop.example.com/skin')).toBe('shop.example.com')
    expect(suggestHost('not a host')).toBeUndefined()
  })

  it('reports each bad entry at its own path, naming the field and leaving other shapes alone', () => {
    const payload = newAppPayload()
    payload.appConfig!.domains = ['shop.example.com', 'https://beauty.example.com/', { host: 'x' }, '']
    expect(validateAppDraft(payload).errors).toEqual([
      {
        path: 'appConfig.domains.1',
        message:
          'Allowed domain 2 “https://beauty.example.com/” must be the host name only (beauty.example.com), without https://',
      },
      {
        path: 'appConfig.domains.3',
        message: 'Allowed domain 4 is empty; write a host name such as shop.example.com, or remove the entry',
      },
    ])
    expect(appDraftColumns(payload)).toMatchObject({ validity: 'invalid', errorCount: 2 })
  })
})

describe('image retention', () => {
  it('maps the console’s presets and anything else to custom', () => {
    expect(retentionChoice(0)).toBe('none')
    expect(retentionChoice(365)).toBe('year')
    expect(retentionChoice(1095)).toBe('three-years')
    expect(retentionChoice(30)).toBe('custom')
    expect(retentionChoice(undefined)).toBe('custom')
    expect(describeRetention(0)).toBe('0 days (None: images are not kept)')
    expect(describeRetention(1)).toBe('1 day')
    expect(describeRetention(365)).toBe('365 days (1 year)')
  })

  it('refuses a negative or fractional number of days with the field’s name', () => {
    const messages = (days: unknown) =>
      validateAppDraft({ ...newAppPayload(), expire_images_after_days: days }).errors.map((e) => e.message)
    expect(messages(-1)).toEqual(['Image retention (days) must be 0 or more, not the number -1'])
    expect(messages(1.5)[0]).toMatch(/^Image retention \(days\) must be a whole number/)
  })
})

describe('the exported request', () => {
  it('is the payload as JSON, named after the app', () => {
    expect(appRequestJson({ name: 'A' })).toBe('{\n  "name": "A"\n}\n')
    expect(appRequestFileName('Northwind Skin Check')).toBe('app-northwind-skin-check.json')
    expect(appRequestFileName('Crème — été 2026!')).toBe('app-creme-ete-2026.json')
    expect(appRequestFileName('')).toBe('app-request.json')
    expect(appRequestFileName('///')).toBe('app-request.json')
  })
})
