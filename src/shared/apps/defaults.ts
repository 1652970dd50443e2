import { SKIN_CONCERNS, type AppCreateRequest } from '../schema/app.ts'

/** What the console offers, per the contract's notes (README of the contract). */
export const DEFAULT_SDK_VERSION = '2.0.0'
export const DEFAULT_ALGORITHM_VERSION = '1.0.0'
export const DEFAULT_RETENTION_DAYS = 365
export const DEFAULT_LANGUAGE = 'en'
export const DEFAULT_FONT = 'Inter'

/** A light theme in the app's own teal, every colour readable on white (see `colour.ts`). */
export const DEFAULT_COLOURS = {
  iconColor: '#1F2937',
  primaryColor: '#0F766E',
  selectionColor: '#0D9488',
} as const

/**
 * The payload of a new app draft: every section the contract lists, filled with what the console
 * starts from (status enabled, SDK 2.0.0, algorithm 1.0.0, 365 days, English, Inter, all nine skin
 * concerns on) and neutral words for the titles. The name and the logo start absent, so the
 * missing-field warnings say what is left to fill in; lists (banners, domains) start empty.
 */
export function newAppPayload(): AppCreateRequest {
  return {
    status: 'enabled',
    expire_images_after_days: DEFAULT_RETENTION_DAYS,
    meta: {},
    sdkVersion: DEFAULT_SDK_VERSION,
    algorithmVersion: DEFAULT_ALGORITHM_VERSION,
    report_config: {
      report_titles: { title: 'Your skin report', subtitle: 'Based on your photo' },
      showConcernVisuals: true,
      overallSkinScore: { skinAge: true, skinTone: true, skinType: true, skinScore: true },
      skinConcerns: {
        title: 'What we found',
        showDetailedConcernVisual: true,
        concerns: Object.fromEntries(SKIN_CONCERNS.map((concern) => [concern, true])),
      },
      features: {
        beautyGptChatbot: { show: false },
        futureSkinSimulation: { show: false, title: 'Your skin in 5 years' },
        productRecommendation: {
          show: true,
          usage: true,
          category: true,
          sellingPrice: true,
          showRedirectLink: true,
          addToCart: false,
          title: 'Recommended for you',
        },
      },
    },
    appConfig: {
      ui_config: {
        advance: {
          allowBack: true,
          allowClose: true,
          allowPrice: true,
          allowWishlist: false,
          allowAddToCart: false,
          allowFullScreen: true,
          allowGlobalCart: false,
          allowGlobalShare: false,
          allowProductName: true,
          allowCameraSwitch: true,
          allowGlobalWishlist: false,
        },
        general: { languages: [DEFAULT_LANGUAGE], watermark: { allowWaterMark: true } },
        screens: {
          loadingScreen: {
            title: 'Analysing your skin',
            showLoaderFacts: true,
            infoText: ['Even, natural light gives the most accurate results.'],
          },
          instructionScreen: {
            banner: { web: [], mobile: [] },
            content: {
              title: 'Before you start',
              instructions: [
                { text: 'Face the camera in good, even light' },
                { text: 'Take off glasses and pull your hair back' },
                { text: 'Keep a neutral expression' },
              ],
            },
          },
        },
        appearance: {
          theme: { type: 'light', configuration: { theme: 'light', ...DEFAULT_COLOURS } },
          typography: { font: DEFAULT_FONT },
        },
        customCode: {
          disableToast: false,
          openLiveOnInit: false,
          popUpOverrides: { quit: false, result: false, restart: false },
          screenOverrides: {
            heroScreen: false,
            domainBlock: false,
            billingBlock: false,
            cameraFailed: false,
            cameraAccessDenied: false,
            somethingWentWrong: false,
          },
        },
      },
      meta: {},
      domains: [],
    },
  }
}
