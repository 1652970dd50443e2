import { z } from './schema/zod.ts'
import type { Channel } from './ipc.ts'

/**
 * The schema of each channel's arguments, as a tuple. Main checks every call against it before a
 * handler runs; `satisfies` makes a channel without a schema, or a schema without a channel, a
 * compile error.
 */
export const invokeArguments = {
  getAppInfo: z.tuple([]),
  openExternal: z.tuple([z.url({ protocol: /^https$/ })]),
} satisfies Record<Channel, z.ZodTuple>
