import type { GuardedFetchOptions } from '#node/net/guarded-fetch.ts'

/** The guarded fetcher's settings the net tests start from: a small GLB, local addresses allowed. */
export const fetchOptions = (overrides: Partial<GuardedFetchOptions> = {}): GuardedFetchOptions => ({
  allowLocalAddresses: () => true,
  maxBytes: 1024,
  timeoutMs: 5_000,
  maxRedirects: 3,
  mediaTypes: new Set(['model/gltf-binary']),
  typesByExtension: {},
  accept: '*/*',
  ...overrides,
})
