import { z } from './schema/zod.ts'
import { httpAddressRule } from './http-address.ts'

const FEED_FORM =
  'Enter the feed address as https://host/folder (http:// is allowed only for this computer: 127.0.0.1 or localhost)'

/** The longest feed address kept: a URL, not a pasted file. */
const MAX_FEED_ADDRESS_LENGTH = 2_048

/**
 * Why `value` cannot be an update feed's address, or undefined when it can ('' is no address: the
 * build's own feed is used). The feed says which file to install, so it is https (http to this
 * computer only); no user name or password (the address is written to the log and the
 * diagnostics), and no query or fragment (electron-updater adds the feed's file names to the path).
 */
export function updateFeedProblem(value: string): string | undefined {
  if (value === '') return undefined
  if (value.length > MAX_FEED_ADDRESS_LENGTH) return `${FEED_FORM}: this one is too long`
  switch (httpAddressRule(value)) {
    case 'form':
      return FEED_FORM
    case 'credentials':
      return `${FEED_FORM}, without a user name or password`
    case 'query':
      return `${FEED_FORM}, without a query or fragment`
    case undefined:
      return undefined
  }
}

/** The address as kept: trimmed, without the trailing slashes a person may type or leave off. */
export function normaliseFeedAddress(value: string): string {
  return value.trim().replace(/\/+$/, '')
}

/** Settings › Updates as the page sends them (checked again in main: see ipc-arguments.ts). */
export const updateSettingsSchema = z.strictObject({
  automatic: z.boolean(),
  feedAddress: z
    .string()
    .max(MAX_FEED_ADDRESS_LENGTH * 2)
    .transform(normaliseFeedAddress)
    .superRefine((value, context) => {
      const problem = updateFeedProblem(value)
      if (problem) context.addIssue({ code: 'custom', message: problem })
    }),
})

/** What the page is doing that an update must not cut short (src/renderer/src/stores/activity.ts). */
export const activitySchema = z.strictObject({ sync: z.boolean(), import: z.boolean() })
