import { describe, expect, it } from 'vitest'
import { newAppPayload } from '#shared/apps/defaults.ts'
import { countByGroup, groupOfPath } from '#renderer/features/apps/groups.ts'
import { previewModel } from '#renderer/features/apps/preview/preview-model.ts'
import { validateAppDraft } from '#shared/apps/validate-app-draft.ts'

describe('what the preview draws', () => {
  it('follows the report’s switches: scores, concerns and features', () => {
    const payload = newAppPayload()
    const report = payload.report_config!
    report.overallSkinScore!.skinAge = false
    report.skinConcerns!.concerns!.acne = false
    ;(report.skinConcerns!.concerns as Record<string, unknown>).hydration = 'yes' // not a boolean: not shown
    report.features!.futureSkinSimulation = { show: true, title: 'In ten years' }
    report.features!.productRecommendation!.show = false
    const model = previewModel(payload)
    expect(model.report.scores.map((score) => score.label)).toEqual(['Skin score', 'Skin tone', 'Skin type'])
    expect(model.report.concerns.map((concern) => concern.key)).toEqual([
      'wrinkles',
      'pores',
      'dark_circles',
      'eye_bags',
      'post_acne_scars',
      'whiteheads',
      'pigmentation',
    ])
    expect(model.report.futureSkin).toEqual({ title: 'In ten years' })
    expect(model.report.products).toBeUndefined()
    expect(model.report.chatbot).toBe(false)
  })

  it('takes titles, texts, banners and buttons from the draft', () => {
    const payload = newAppPayload()
    const ui = payload.appConfig!.ui_config!
    ui.screens!.loadingScreen!.infoText = ['One', '', 'Two']
    ui.screens!.instructionScreen!.banner = {
      web: [{ url: 'https://cdn.example.com/web.png' }],
      mobile: [{ url: '' }],
    }
    ui.advance!.allowBack = false
    ui.advance!.allowGlobalShare = true
    payload.report_config!.logo = 'https://cdn.example.com/logo.png'
    const model = previewModel(payload)
    expect(model.loading).toEqual({ title: 'Analysing your skin', showFacts: true, facts: ['One', 'Two'] })
    expect(model.instructions.webBanner).toBe('https://cdn.example.com/web.png')
    expect(model.instructions.mobileBanner).toBeUndefined()
    expect(model.instructions.steps).toHaveLength(3)
    expect(model.buttons).toMatchObject({ back: false, close: true, share: true, cart: false })
    expect(model.logo).toBe('https://cdn.example.com/logo.png')
  })

  it('draws the theme’s colours and font, and the defaults where a colour is not one', () => {
    const payload = newAppPayload()
    const theme = payload.appConfig!.ui_config!.appearance!.theme!
    theme.type = 'dark'
    theme.configuration!.theme = 'dark'
    theme.configuration!.primaryColor = '#FF0066'
    theme.configuration!.iconColor = 'blue'
    payload.appConfig!.ui_config!.appearance!.typography!.font = 'Lato'
    const model = previewModel(payload)
    expect(model.theme).toBe('dark')
    expect(model.cssVars).toMatchObject({
      '--shop-primary': '#FF0066',
      '--shop-icon': '#1F2937',
      '--shop-bg': '#111827',
      '--shop-font': '"Lato", system-ui, sans-serif',
    })
    expect(model.fontName).toBe('Lato')
  })

  it('draws an empty or odd payload without throwing', () => {
    expect(previewModel({}).report.concerns).toEqual([])
    expect(previewModel(null).loading.title).toBe('')
    expect(previewModel({ report_config: 'x' }).report.scores).toEqual([])
  })
})

describe('the editor’s groups', () => {
  it('put each field where the product thinks it is', () => {
    expect(groupOfPath('name')).toBe('general')
    expect(groupOfPath('expire_images_after_days')).toBe('general')
    expect(groupOfPath('report_config.skinConcerns.concerns.acne')).toBe('report')
    expect(groupOfPath('appConfig.ui_config.screens.loadingScreen.title')).toBe('experience')
    expect(groupOfPath('appConfig.ui_config.appearance.theme.configuration.primaryColor')).toBe('appearance')
    expect(groupOfPath('appConfig.domains.2')).toBe('access')
    expect(groupOfPath('appConfig.meta')).toBe('meta')
    expect(groupOfPath('meta')).toBe('meta')
    expect(groupOfPath('somethingElse')).toBe('meta')
    expect(groupOfPath('')).toBe('general')
  })

  it('count problems per group for the tabs', () => {
    const payload = newAppPayload()
    payload.appConfig!.domains = ['https://x.example.com']
    payload.appConfig!.ui_config!.appearance!.theme!.configuration!.iconColor = 'grey'
    const counts = countByGroup(validateAppDraft(payload))
    expect(counts.general).toEqual({ errors: 0, warnings: 1 })
    expect(counts.report).toEqual({ errors: 0, warnings: 1 })
    expect(counts.access).toEqual({ errors: 1, warnings: 0 })
    expect(counts.appearance).toEqual({ errors: 1, warnings: 0 })
    expect(counts.experience).toEqual({ errors: 0, warnings: 0 })
  })
})
