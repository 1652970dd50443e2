import type { ConnectionTest } from '#shared/ipc.ts'

/** A connection test's result as main hands it to the page: refused for want of a token unless told otherwise. */
export const connectionResult = (over: Partial<ConnectionTest>): ConnectionTest => ({
  ok: false,
  kind: 'needs-token',
  message: 'm',
  url: 'http://127.0.0.1:1',
  durationMs: 1,
  ...over,
})
