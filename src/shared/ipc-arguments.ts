import { z } from './schema/zod.ts'
import type { Channel } from './ipc.ts'
import { profileSchema } from './profile.ts'

const profileId = z.string().min(1).max(64)
/** A pasted token: bounded, so a mistaken paste of a whole file is refused before it reaches the keychain. */
const token = z.string().min(1).max(8_192)

/**
 * The schema of each channel's arguments, as a tuple. Main checks every call against it before a
 * handler runs; `satisfies` makes a channel without a schema, or a schema without a channel, a
 * compile error.
 */
export const invokeArguments = {
  getAppInfo: z.tuple([]),
  openExternal: z.tuple([z.url({ protocol: /^https$/ })]),
  listProfiles: z.tuple([]),
  saveProfile: z.tuple([profileSchema]),
  removeProfile: z.tuple([profileId]),
  activateProfile: z.tuple([profileId]),
  setToken: z.tuple([profileId, token]),
  clearToken: z.tuple([profileId]),
  testConnection: z.tuple([profileId]),
} satisfies Record<Channel, z.ZodTuple>
