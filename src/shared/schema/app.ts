import { z } from './zod.ts'
import { lazily } from '../lazily.ts'
import { boolean, color, integer, item, json, list, section, text, textItem, url } from './field.ts'

/** The skin-analysis app creation request and the app the service returns, per the contract. */

const flags = <K extends string>(keys: readonly K[], titles: Record<K, string>) =>
  Object.fromEntries(keys.map((key) => [key, boolean({ title: titles[key] })])) as Record<
    K,
    ReturnType<typeof boolean>
  >

export const SKIN_CONCERNS = [
  'acne',
  'wrinkles',
  'pores',
  'dark_circles',
  'eye_bags',
  'post_acne_scars',
  'whiteheads',
  'pigmentation',
  'hydration',
] as const

export const SKIN_CONCERN_TITLES: Record<(typeof SKIN_CONCERNS)[number], string> = {
  acne: 'Acne',
  wrinkles: 'Wrinkles',
  pores: 'Pores',
  dark_circles: 'Dark circles',
  eye_bags: 'Eye bags',
  post_acne_scars: 'Post-acne scars',
  whiteheads: 'Whiteheads',
  pigmentation: 'Pigmentation',
  hydration: 'Hydration',
}

const ADVANCE_FLAGS = [
  'allowBack',
  'allowClose',
  'allowPrice',
  'allowWishlist',
  'allowAddToCart',
  'allowFullScreen',
  'allowGlobalCart',
  'allowGlobalShare',
  'allowProductName',
  'allowCameraSwitch',
  'allowGlobalWishlist',
] as const

const ADVANCE_TITLES: Record<(typeof ADVANCE_FLAGS)[number], string> = {
  allowBack: 'Back button',
  allowClose: 'Close button',
  allowPrice: 'Prices',
  allowWishlist: 'Wishlist',
  allowAddToCart: 'Add to cart',
  allowFullScreen: 'Full screen',
  allowGlobalCart: 'Global cart',
  allowGlobalShare: 'Global share',
  allowProductName: 'Product names',
  allowCameraSwitch: 'Camera switch',
  allowGlobalWishlist: 'Global wishlist',
}

const banner = (screen: 'Web' | 'Mobile', size: string) =>
  item(
    { title: `${screen} banner` },
    {
      _id: text({ title: `${screen} banner ID` }),
      url: url({ title: `${screen} banner image`, showsImage: true }),
      size: text({ title: `${screen} banner size`, examples: [size] }),
      filename: text({ title: `${screen} banner file name` }),
    },
  )

const reportConfig = () =>
  section(
    { title: 'Report' },
    {
      logo: url({
        title: 'Logo',
        description: 'Web address of the logo shown on the report.',
        showsImage: true,
      }),
      report_titles: section(
        { title: 'Report titles' },
        {
          title: text({ title: 'Report title' }),
          subtitle: text({ title: 'Report subtitle' }),
        },
      ),
      showConcernVisuals: boolean({ title: 'Show concern visuals' }),
      overallSkinScore: section(
        { title: 'Overall skin score' },
        {
          skinAge: boolean({ title: 'Skin age' }),
          skinTone: boolean({ title: 'Skin tone' }),
          skinType: boolean({ title: 'Skin type' }),
          skinScore: boolean({ title: 'Skin score' }),
        },
      ),
      skinConcerns: section(
        { title: 'Skin concerns' },
        {
          title: text({ title: 'Skin concerns title' }),
          showDetailedConcernVisual: boolean({ title: 'Show detailed concern visual' }),
          concerns: section({ title: 'Concerns shown' }, flags(SKIN_CONCERNS, SKIN_CONCERN_TITLES)),
        },
      ),
      features: section(
        { title: 'Features' },
        {
          beautyGptChatbot: section(
            { title: 'Beauty chatbot' },
            {
              show: boolean({ title: 'Show the beauty chatbot' }),
            },
          ),
          futureSkinSimulation: section(
            { title: 'Future skin simulation' },
            {
              show: boolean({ title: 'Show the future skin simulation' }),
              title: text({ title: 'Future skin simulation title' }),
            },
          ),
          productRecommendation: section(
            { title: 'Product recommendations' },
            {
              show: boolean({ title: 'Show product recommendations' }),
              usage: boolean({ title: 'Show usage' }),
              category: boolean({ title: 'Show category' }),
              sellingPrice: boolean({ title: 'Show selling price' }),
              showRedirectLink: boolean({ title: 'Show product link' }),
              addToCart: boolean({ title: 'Show add to cart' }),
              title: text({ title: 'Product recommendations title' }),
            },
          ),
        },
      ),
    },
  )

const uiConfig = () =>
  section(
    { title: 'Interface' },
    {
      advance: section({ title: 'Buttons and actions' }, flags(ADVANCE_FLAGS, ADVANCE_TITLES)),
      general: section(
        { title: 'General' },
        {
          languages: list(
            { title: 'Languages', description: 'The console offers English only.' },
            textItem({ title: 'Language', examples: ['en'] }),
          ),
          watermark: section(
            { title: 'Watermark' },
            {
              allowWaterMark: boolean({ title: 'Show watermark' }),
            },
          ),
        },
      ),
      screens: section(
        { title: 'Screens' },
        {
          loadingScreen: section(
            { title: 'Loading screen' },
            {
              title: text({ title: 'Loading screen title' }),
              showLoaderFacts: boolean({ title: 'Show facts while loading' }),
              infoText: list({ title: 'Loading info texts' }, textItem({ title: 'Info text' })),
            },
          ),
          instructionScreen: section(
            { title: 'Instruction screen' },
            {
              banner: section(
                { title: 'Banners' },
                {
                  web: list({ title: 'Web banners' }, banner('Web', '1200x400')),
                  mobile: list({ title: 'Mobile banners' }, banner('Mobile', '600x800')),
                },
              ),
              content: section(
                { title: 'Instructions' },
                {
                  title: text({ title: 'Instruction screen title' }),
                  instructions: list(
                    { title: 'Instruction steps' },
                    item({ title: 'Instruction' }, { text: text({ title: 'Instruction text' }) }),
                  ),
                },
              ),
            },
          ),
        },
      ),
      appearance: section(
        { title: 'Appearance' },
        {
          theme: section(
            { title: 'Theme' },
            {
              type: text({ title: 'Theme type', examples: ['light', 'dark'] }),
              configuration: section(
                { title: 'Theme colours' },
                {
                  theme: text({ title: 'Colour scheme', examples: ['light', 'dark'] }),
                  iconColor: color({ title: 'Icon colour' }),
                  primaryColor: color({ title: 'Primary colour' }),
                  selectionColor: color({ title: 'Selection colour' }),
                },
              ),
            },
          ),
          typography: section(
            { title: 'Typography' },
            {
              font: text({
                title: 'Font',
                examples: ['Inter', 'Arial', 'Helvetica', 'Roboto', 'Open Sans', 'Lato', 'Montserrat'],
              }),
            },
          ),
        },
      ),
      customCode: section(
        { title: 'Custom code' },
        {
          disableToast: boolean({ title: 'Disable toasts' }),
          openLiveOnInit: boolean({ title: 'Open the live camera on start' }),
          popUpOverrides: section(
            { title: 'Pop-up overrides' },
            {
              quit: boolean({ title: 'Override the quit pop-up' }),
              result: boolean({ title: 'Override the result pop-up' }),
              restart: boolean({ title: 'Override the restart pop-up' }),
            },
          ),
          screenOverrides: section(
            { title: 'Screen overrides' },
            {
              heroScreen: boolean({ title: 'Override the hero screen' }),
              domainBlock: boolean({ title: 'Override the domain block screen' }),
              billingBlock: boolean({ title: 'Override the billing block screen' }),
              cameraFailed: boolean({ title: 'Override the camera failed screen' }),
              cameraAccessDenied: boolean({ title: 'Override the camera access denied screen' }),
              somethingWentWrong: boolean({ title: 'Override the error screen' }),
            },
          ),
        },
      ),
    },
  )

const freeForm = (title: string, description: string) =>
  json({ title, description }, z.record(z.string(), z.unknown()))

function buildAppCreateRequestSchema() {
  return z.looseObject({
    name: text({ title: 'App name' }),
    expire_images_after_days: integer({
      title: 'Image retention (days)',
      description: 'Uploaded analysis images are deleted automatically after this many days.',
      examples: [365, 1095],
      min: 0,
    }),
    status: text({ title: 'App status', examples: ['enabled'] }),
    meta: freeForm('App meta', 'Free-form data kept with the app; may be empty.'),
    sdkVersion: text({ title: 'SDK version', examples: ['2.0.0'] }),
    algorithmVersion: text({ title: 'Algorithm version', examples: ['1.0.0'] }),
    report_config: reportConfig(),
    appConfig: section(
      { title: 'Experience' },
      {
        ui_config: uiConfig(),
        meta: freeForm('Experience meta', 'Free-form data kept with the interface settings; may be empty.'),
        domains: json(
          {
            title: 'Allowed domains',
            description: 'Domain restrictions. The shape of an entry is not documented; may be empty.',
          },
          z.array(z.unknown()),
        ),
      },
    ),
  })
}

/** The contract's app, built on its first use (as `skuSchema`, issue #37). */
export const appCreateRequestSchema = lazily(buildAppCreateRequestSchema)

/**
 * The `app` object the service returns. Parsed leniently: it is untrusted input, and the contract's
 * sample returns several nested objects empty, so only the identifier is insisted on.
 */
function buildAppResponseSchema() {
  return z.looseObject({
    _id: z.string().min(1),
    org_id: z.string().optional(),
    name: z.string().optional(),
    status: z.string().optional(),
    expire_images_after_days: z.number().optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
    report_config: z.record(z.string(), z.unknown()).optional(),
    created_at: z.string().optional(),
    copilot: z.record(z.string(), z.unknown()).optional(),
    sdkVersion: z.string().optional(),
    algorithmVersion: z.string().optional(),
    appConfig: z
      .looseObject({
        _id: z.string().optional(),
        app_id: z.string().optional(),
        ui_config: z.record(z.string(), z.unknown()).optional(),
        meta: z.record(z.string(), z.unknown()).optional(),
        domains: z.array(z.unknown()).optional(),
        created_at: z.string().optional(),
        updated_at: z.string().optional(),
      })
      .optional(),
  })
}

export const appResponseSchema = lazily(buildAppResponseSchema)

export const appCreateResponseSchema = lazily(() => z.looseObject({ app: appResponseSchema() }))

export type AppCreateRequest = z.input<ReturnType<typeof appCreateRequestSchema>>
export type AppResponse = z.output<ReturnType<typeof appResponseSchema>>
