/**
 * What "destination" and "profile" mean, said in these words wherever a page first uses them (the
 * empty SKU list, Settings' profiles, the Sync page) and in the README's first five minutes, so a
 * newcomer meets one explanation, not three.
 */

/** A destination: where drafts are sent (`destination` in src/shared/sync/destination.ts). */
export const DESTINATION_MEANS =
  "A destination is where your drafts are sent: one of the service's environments, such as the Sandbox built into this app, Staging or Production."

/** A profile: how the app reaches one destination (`Profile` in src/shared/profile.ts). */
export const PROFILE_MEANS = 'A profile is the address and token the app uses to reach one.'
