import { z } from './schema/zod.ts'
import { lazily } from './lazily.ts'
import { httpAddressRule } from './http-address.ts'
import { DEFAULT_REQUIRED_FIELDS, REQUIRABLE_FIELDS, type RequirableField } from './sync/send-gates.ts'

/**
 * A service profile: where requests go and how they are sent. Non-secret: the token lives in the
 * OS keychain, keyed by the profile's id, and never in this object.
 */

export const TOKEN_ENCODINGS = ['raw', 'base64'] as const
export type TokenEncoding = (typeof TOKEN_ENCODINGS)[number]

const SERVICE_URL_FORM =
  'Enter the service address as https://host (http:// is allowed only for this computer: 127.0.0.1 or localhost)'

/**
 * Why `value` cannot be a service address, or undefined when it can: https, or http to this
 * computer only (a local sandbox), so a token never crosses a network in clear. A `?` or `#` is
 * refused even when nothing follows it: the URL API reports an empty query or fragment as none,
 * and text after the address's path could otherwise move where an operation is sent.
 */
export function serviceUrlProblem(value: string): string | undefined {
  switch (httpAddressRule(value)) {
    case 'form':
      return SERVICE_URL_FORM
    case 'credentials':
      return `${SERVICE_URL_FORM}, without a user name or password`
    case 'query':
      return `${SERVICE_URL_FORM}, without a query or fragment: remove everything from the “${value.includes('?') ? '?' : '#'}”`
    case undefined:
      return undefined
  }
}

const serviceUrlSchema = () =>
  z
    .string()
    .trim()
    .superRefine((value, context) => {
      const problem = serviceUrlProblem(value)
      if (problem) context.addIssue({ code: 'custom', message: problem })
    })

/** The bounds a profile's sending settings must keep (the app's form and the CLI's options alike). */
export const PROFILE_LIMITS = {
  batchSize: { min: 1, max: 1_000 },
  concurrency: { min: 1, max: 8 },
  /** Each timeout in whole seconds, at least 1. */
  timeoutSeconds: { min: 1, connect: 120, response: 600, total: 900 },
} as const

const milliseconds = (maxSeconds: number) =>
  z
    .number()
    .int()
    .min(PROFILE_LIMITS.timeoutSeconds.min * 1_000, 'At least 1 second')
    .max(maxSeconds * 1_000, `At most ${maxSeconds} seconds`)

const timeoutsSchema = () =>
  z.object({
    /** Until the connection (and TLS) is up. Short: a dead host should be known quickly. */
    connectMs: milliseconds(PROFILE_LIMITS.timeoutSeconds.connect),
    /** From the end of the upload to the first byte of the answer: the service's processing time. */
    responseMs: milliseconds(PROFILE_LIMITS.timeoutSeconds.response),
    /** The whole request, start to finish. */
    totalMs: milliseconds(PROFILE_LIMITS.timeoutSeconds.total),
  })
export type Timeouts = z.infer<ReturnType<typeof timeoutsSchema>>

const profileFields = () => ({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'Profile ids are lower-case letters, digits and dashes'),
  name: z.string().trim().min(1, 'Give the profile a name').max(80),
  tokenEncoding: z.enum(TOKEN_ENCODINGS),
  batchSize: z
    .number()
    .int()
    .min(PROFILE_LIMITS.batchSize.min, 'At least 1 SKU a batch')
    .max(
      PROFILE_LIMITS.batchSize.max,
      `At most ${PROFILE_LIMITS.batchSize.max.toLocaleString('en')} SKUs a batch`,
    ),
  concurrency: z
    .number()
    .int()
    .min(PROFILE_LIMITS.concurrency.min, 'At least 1 request at a time')
    .max(PROFILE_LIMITS.concurrency.max, `At most ${PROFILE_LIMITS.concurrency.max} requests at a time`),
  timeouts: timeoutsSchema(),
  /**
   * The fields a SKU needs, besides its product name and barcode, to be sent with this profile
   * (src/shared/sync/send-gates.ts). A profile saved before this setting existed gets the defaults;
   * a field this version does not know is dropped rather than refusing the profile.
   */
  requiredFields: z
    .array(z.string())
    .readonly()
    .default(DEFAULT_REQUIRED_FIELDS)
    .transform((fields): readonly RequirableField[] =>
      REQUIRABLE_FIELDS.filter((field) => fields.includes(field)),
    ),
  /**
   * Whether a SKU whose barcode is a GTIN with a wrong check digit (or a letter where a digit
   * belongs) is held back from a sync with this profile, rather than only warned about. Off by
   * default, and for a profile saved before this setting existed: a shop's numbering may be its
   * own, and the person decides.
   */
  holdBadCheckDigits: z.boolean().default(false),
})

/**
 * A profile's schema, built on its first use (lazily.ts): main reads profiles with it, the page
 * only when Settings checks a form, never at the window's start (issue #37).
 */
export const profileSchema = lazily(() => {
  const fields = profileFields()
  return z.discriminatedUnion('kind', [
    /** The sandbox embedded in the app: its address is known only while the app runs. */
    z.object({ ...fields, kind: z.literal('embedded-sandbox') }),
    z.object({ ...fields, kind: z.literal('service'), baseUrl: serviceUrlSchema() }),
  ])
})
export type Profile = z.infer<ReturnType<typeof profileSchema>>
/** A profile as it may be given to be saved: settings added since (`requiredFields`, `holdBadCheckDigits`) may be absent. */
export type ProfileInput = z.input<ReturnType<typeof profileSchema>>

/** Where a profile's token is kept, as the renderer may learn it (never the token itself). */
export type TokenStorage = 'keychain' | 'memory' | 'embedded-sandbox'

/** A profile as the renderer sees it. */
export type ProfileView = Profile & {
  /** The address requests go to (for the embedded sandbox, its current loopback address). */
  url: string
  /** Where its drafts go, as sync states are kept (src/shared/sync/destination.ts). */
  destination: string
  hasToken: boolean
  tokenStorage: TokenStorage | null
  builtIn: boolean
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, responseMs: 60_000, totalMs: 120_000 }

/** The platform's console sends 50 SKUs a request; one request at a time is the safe default. */
export const DEFAULT_SENDING = {
  batchSize: 50,
  concurrency: 1,
  tokenEncoding: 'raw',
  timeouts: DEFAULT_TIMEOUTS,
  requiredFields: DEFAULT_REQUIRED_FIELDS,
  holdBadCheckDigits: false,
} as const

export const BUILT_IN_PROFILES: readonly Profile[] = [
  { id: 'sandbox', name: 'Sandbox', kind: 'embedded-sandbox', ...DEFAULT_SENDING },
  {
    id: 'production',
    name: 'Production',
    kind: 'service',
    baseUrl: 'https://api.pixelbin.io',
    ...DEFAULT_SENDING,
  },
  // The host the platform's SDKs use for development.
  {
    id: 'staging',
    name: 'Staging',
    kind: 'service',
    baseUrl: 'https://api.pixelbinz0.de',
    ...DEFAULT_SENDING,
  },
]
