import { messageOf } from '#shared/error-message.ts'
import type { Profile } from '#shared/profile.ts'
import { hasOwnAddress, normaliseBaseUrl } from '#shared/sync/destination.ts'
import type { TokenStore } from '../secrets/token-store.ts'
import { builtInProfile, tokenAddress } from './profile-rules.ts'
import type { ProfileStore } from './profile-store.ts'

export type ServiceProfile = Extract<Profile, { kind: 'service' }>

export interface AddressMoveOptions {
  profiles: ProfileStore
  tokens: Pick<TokenStore, 'get' | 'set'>
  /** The old address, in each spelling that names it (`http://127.0.0.1:N`, `http://localhost:N`). */
  from: readonly string[]
  to: string
}

export interface AddressMove {
  /** The profiles now at the new address, as saved. */
  moved: ServiceProfile[]
  /** The profiles still at the old address, each with why; their tokens are where they were. */
  left: Array<{ profile: ServiceProfile; reason: string }>
  /** What to know about a moved profile's token (kept in memory only, or not kept at all). */
  notices: string[]
}

/**
 * Points the custom service profiles whose address is one of `from` at `to`, tokens included. A
 * token is bound to its address and saving a new address drops it (profile-store.ts), so it is
 * read for the old address first and set for the new one once the profile is saved. Built-in
 * profiles are left as they are: the Sandbox profile follows the embedded sandbox by itself, and
 * Production and Staging are not moved behind the person's back.
 */
export async function moveProfileAddress({
  profiles,
  tokens,
  from,
  to,
}: AddressMoveOptions): Promise<AddressMove> {
  const old = new Set(from.map(normaliseBaseUrl))
  const list = await profiles.list()
  const movable = list.profiles.filter(
    (profile): profile is ServiceProfile =>
      hasOwnAddress(profile) && !builtInProfile(profile.id) && old.has(normaliseBaseUrl(profile.baseUrl)),
  )
  const result: AddressMove = { moved: [], left: [], notices: [] }
  for (const profile of movable) {
    if (list.readOnly) {
      result.left.push({ profile, reason: 'the saved profiles cannot be changed now' })
      continue
    }
    const address = tokenAddress(profile)
    let token: string | undefined
    let saved: ServiceProfile
    try {
      token = await tokens.get(profile.id, address)
      // Saved as given, so still a service profile; the store only normalises the address.
      saved = (await profiles.save({ ...profile, baseUrl: to })) as ServiceProfile
    } catch (error) {
      result.left.push({ profile, reason: await restoreToken(tokens, profile.id, address, token, error) })
      continue
    }
    result.moved.push(saved)
    if (token === undefined) continue
    try {
      const { notice } = await tokens.set(profile.id, tokenAddress(saved), token)
      if (notice) result.notices.push(`The token of "${profile.name}": ${notice}`)
    } catch (error) {
      result.notices.push(
        `The token of "${profile.name}" could not be kept for its new address (${messageOf(error)}): paste it again.`,
      )
    }
  }
  return result
}

/**
 * Why a profile stayed where it was. A save that failed after dropping the token (it is dropped
 * before the file is written) would leave the profile at its old address without it: it is put back.
 */
async function restoreToken(
  tokens: Pick<TokenStore, 'get' | 'set'>,
  profileId: string,
  address: string,
  token: string | undefined,
  error: unknown,
): Promise<string> {
  const reason = messageOf(error)
  if (token === undefined) return reason
  try {
    if ((await tokens.get(profileId, address)) === undefined) await tokens.set(profileId, address, token)
    return reason
  } catch (restoreError) {
    return `${reason}; its token could not be kept either (${messageOf(restoreError)})`
  }
}
