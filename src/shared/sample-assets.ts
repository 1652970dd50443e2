/**
 * Sample addresses: what the import template's example row names for its 3D model, environment
 * and product picture, so that a first draft made from the template shows something real.
 *
 * They are under a host of `.invalid`, the top-level domain RFC 2606 reserves for names that must
 * never resolve: whatever a person does with the file (sends it to the platform, opens it in a
 * browser), such an address reaches no one's server and can never be somebody's real asset. Main
 * answers them with the app's bundled samples (resources/preview) and never fetches them
 * (src/node/preview-assets.ts, src/node/thumbnail-route.ts, and the guarded fetcher refuses them
 * for every other caller). A draft that still names one is held back from every destination but
 * the built-in Sandbox (src/shared/sync/send-gates.ts): it is a stand-in, not the shop's file.
 */
export const SAMPLE_ORIGIN = 'https://samples.catalog-desk.invalid'
const SAMPLE_HOST = /samples\.catalog-desk\.invalid/i

/** The bundled samples there are, by the address that names each. */
export const SAMPLE_ADDRESSES = {
  model: `${SAMPLE_ORIGIN}/sample-glasses.glb`,
  environment: `${SAMPLE_ORIGIN}/studio.hdr`,
  picture: `${SAMPLE_ORIGIN}/sample-product.png`,
} as const

export type SampleName = keyof typeof SAMPLE_ADDRESSES

/** Whether `address` is under the sample origin (one of the samples or not), spaces around it aside. */
export function isSampleAddress(address: unknown): boolean {
  if (typeof address !== 'string') return false
  const url = URL.parse(address.trim())
  return url !== null && url.origin === SAMPLE_ORIGIN
}

/** Which bundled sample `address` names, if it names one. */
export function sampleAt(address: string): SampleName | undefined {
  const url = URL.parse(address.trim())
  if (url === null || url.origin !== SAMPLE_ORIGIN) return undefined
  const path = `${SAMPLE_ORIGIN}${url.pathname}`
  return (Object.keys(SAMPLE_ADDRESSES) as SampleName[]).find((name) => SAMPLE_ADDRESSES[name] === path)
}

/** Whether any text anywhere in `value` (a draft's payload) is a sample address. */
export function namesSampleAddress(value: unknown): boolean {
  // Most text names no address at all: the host is looked for before anything is parsed.
  if (typeof value === 'string') return SAMPLE_HOST.test(value) && isSampleAddress(value)
  if (Array.isArray(value)) return value.some(namesSampleAddress)
  if (value !== null && typeof value === 'object') return Object.values(value).some(namesSampleAddress)
  return false
}
