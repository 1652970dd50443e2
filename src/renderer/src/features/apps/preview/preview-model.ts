import { textOf } from '#shared/text-of.ts'
import { getAt, type PathSegment } from '#shared/json-path.ts'
import { SKIN_CONCERNS, SKIN_CONCERN_TITLES } from '#shared/schema/app.ts'
import {
  COLOUR_KEYS,
  fontStack,
  ON_PRIMARY,
  shownColour,
  THEME_PAGES,
  themeKind,
  type ThemeKind,
} from '#shared/apps/theme.ts'

/**
 * What the preview draws, read from a draft: titles, pictures, colours, font, and which sections,
 * concerns and buttons appear. Pure, so what a shopper would see follows from the payload alone.
 * Absent or mistyped values read as the platform most plausibly would: a flag shows only when it
 * is true, a text only when it is text.
 */
export interface PreviewModel {
  theme: ThemeKind
  /** CSS custom properties of the preview frame. */
  cssVars: Record<string, string>
  fontName: string
  logo?: string
  watermark: boolean
  languages: string[]
  buttons: {
    back: boolean
    close: boolean
    fullScreen: boolean
    cameraSwitch: boolean
    share: boolean
    cart: boolean
    wishlist: boolean
  }
  loading: { title: string; showFacts: boolean; facts: string[] }
  instructions: { title: string; steps: string[]; webBanner?: string; mobileBanner?: string }
  report: {
    title: string
    subtitle: string
    scores: { key: string; label: string; value: string }[]
    concernsTitle: string
    concerns: { key: string; label: string; score: number }[]
    concernVisuals: boolean
    detailedVisual: boolean
    chatbot: boolean
    futureSkin?: { title: string }
    products?: {
      title: string
      usage: boolean
      category: boolean
      price: boolean
      link: boolean
      addToCart: boolean
      names: boolean
      wishlist: boolean
    }
  }
}

/** Made-up results, so the report has something to show. Said to be samples wherever shown. */
export const SAMPLE_SCORES = [
  { key: 'skinScore', label: 'Skin score', value: '82/100' },
  { key: 'skinAge', label: 'Skin age', value: '29 years' },
  { key: 'skinTone', label: 'Skin tone', value: 'Medium' },
  { key: 'skinType', label: 'Skin type', value: 'Combination' },
] as const

export const SAMPLE_CONCERN_SCORES: Record<(typeof SKIN_CONCERNS)[number], number> = {
  acne: 72,
  wrinkles: 85,
  pores: 64,
  dark_circles: 58,
  eye_bags: 77,
  post_acne_scars: 81,
  whiteheads: 69,
  pigmentation: 62,
  hydration: 54,
}

export const SAMPLE_PRODUCTS = [
  { name: 'Hydrating serum', category: 'Serum', price: '€24.00', usage: 'Morning and evening' },
  { name: 'Gentle cleanser', category: 'Cleanser', price: '€14.50', usage: 'Every evening' },
] as const

const REPORT = ['report_config']
const UI = ['appConfig', 'ui_config']

export function previewModel(payload: unknown): PreviewModel {
  const at = (path: PathSegment[]) => getAt(payload, path)
  const on = (path: PathSegment[]) => at(path) === true
  const text = (path: PathSegment[]) => textOf(at(path))
  const texts = (path: PathSegment[]) => {
    const value = at(path)
    return Array.isArray(value)
      ? value.filter((entry): entry is string => typeof entry === 'string' && entry !== '')
      : []
  }
  const firstBanner = (screen: 'web' | 'mobile') => {
    const list = at([...UI, 'screens', 'instructionScreen', 'banner', screen])
    const url = Array.isArray(list) ? getAt(list[0], ['url']) : undefined
    return typeof url === 'string' && url ? url : undefined
  }

  const theme = themeKind(payload)
  const page = THEME_PAGES[theme]
  const font = at([...UI, 'appearance', 'typography', 'font'])
  const colours = Object.fromEntries(COLOUR_KEYS.map((key) => [key, shownColour(payload, key)]))
  const advance = [...UI, 'advance']
  const features = [...REPORT, 'features']
  const recommendation = [...features, 'productRecommendation']
  const logo = text([...REPORT, 'logo'])

  return {
    theme,
    cssVars: {
      '--shop-primary': colours.primaryColor!,
      '--shop-icon': colours.iconColor!,
      '--shop-selection': colours.selectionColor!,
      '--shop-on-primary': ON_PRIMARY,
      '--shop-bg': page.background,
      '--shop-surface': page.surface,
      '--shop-text': page.text,
      '--shop-muted': page.muted,
      '--shop-font': fontStack(font),
    },
    fontName: typeof font === 'string' && font.trim() ? font.trim() : 'the system font',
    logo: logo || undefined,
    watermark: on([...UI, 'general', 'watermark', 'allowWaterMark']),
    languages: texts([...UI, 'general', 'languages']),
    buttons: {
      back: on([...advance, 'allowBack']),
      close: on([...advance, 'allowClose']),
      fullScreen: on([...advance, 'allowFullScreen']),
      cameraSwitch: on([...advance, 'allowCameraSwitch']),
      share: on([...advance, 'allowGlobalShare']),
      cart: on([...advance, 'allowGlobalCart']),
      wishlist: on([...advance, 'allowGlobalWishlist']),
    },
    loading: {
      title: text([...UI, 'screens', 'loadingScreen', 'title']),
      showFacts: on([...UI, 'screens', 'loadingScreen', 'showLoaderFacts']),
      facts: texts([...UI, 'screens', 'loadingScreen', 'infoText']),
    },
    instructions: {
      title: text([...UI, 'screens', 'instructionScreen', 'content', 'title']),
      steps: instructionSteps(at([...UI, 'screens', 'instructionScreen', 'content', 'instructions'])),
      webBanner: firstBanner('web'),
      mobileBanner: firstBanner('mobile'),
    },
    report: {
      title: text([...REPORT, 'report_titles', 'title']),
      subtitle: text([...REPORT, 'report_titles', 'subtitle']),
      scores: SAMPLE_SCORES.filter(({ key }) => on([...REPORT, 'overallSkinScore', key])).map((score) => ({
        ...score,
      })),
      concernsTitle: text([...REPORT, 'skinConcerns', 'title']),
      concerns: SKIN_CONCERNS.filter((key) => on([...REPORT, 'skinConcerns', 'concerns', key])).map(
        (key) => ({
          key,
          label: SKIN_CONCERN_TITLES[key],
          score: SAMPLE_CONCERN_SCORES[key],
        }),
      ),
      concernVisuals: on([...REPORT, 'showConcernVisuals']),
      detailedVisual: on([...REPORT, 'skinConcerns', 'showDetailedConcernVisual']),
      chatbot: on([...features, 'beautyGptChatbot', 'show']),
      futureSkin: on([...features, 'futureSkinSimulation', 'show'])
        ? { title: text([...features, 'futureSkinSimulation', 'title']) }
        : undefined,
      products: on([...recommendation, 'show'])
        ? {
            title: text([...recommendation, 'title']),
            usage: on([...recommendation, 'usage']),
            category: on([...recommendation, 'category']),
            price: on([...recommendation, 'sellingPrice']),
            link: on([...recommendation, 'showRedirectLink']),
            addToCart: on([...recommendation, 'addToCart']),
            names: on([...advance, 'allowProductName']),
            wishlist: on([...advance, 'allowWishlist']),
          }
        : undefined,
    },
  }
}

function instructionSteps(value: unknown): string[] {
  if (!Array.isArray(value)) return []
  return value
    .map((entry) => getAt(entry, ['text']))
    .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
}
