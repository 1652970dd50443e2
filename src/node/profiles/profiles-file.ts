import { isDeepStrictEqual } from 'node:util'
import { BUILT_IN_PROFILES, type Profile } from '#shared/profile.ts'
import { builtInProfile, checkProfile, SANDBOX_PROFILE_ID } from './profile-rules.ts'
import { isRecord } from '#shared/is-record.ts'

export const PROFILES_FILE_NAME = 'profiles.json'
export const PROFILES_FILE_VERSION = 1

/** The profiles as the app works with them: built-ins first, always present, then the user's own. */
export interface ProfilesData {
  activeId: string
  profiles: Profile[]
}

/** What the file on disk says, before the store decides what to do about it. */
export type ProfilesFileContent =
  | {
      kind: 'current'
      data: ProfilesData
      /** Entries that could not be used and were left out, each with the reason. */
      dropped: string[]
    }
  | { kind: 'newer'; version: number; data: ProfilesData }
  | { kind: 'corrupt'; reason: string }

export function defaultProfilesData(): ProfilesData {
  return { activeId: SANDBOX_PROFILE_ID, profiles: structuredClone([...BUILT_IN_PROFILES]) }
}

/** The usable entries of a stored list, plus what was wrong with the others. */
function readEntries(entries: unknown[]): { profiles: Profile[]; dropped: string[] } {
  const profiles: Profile[] = []
  const dropped: string[] = []
  const seen = new Set<string>()
  entries.forEach((entry, index) => {
    const label =
      isRecord(entry) && typeof entry.name === 'string' ? `"${entry.name}"` : `number ${index + 1}`
    const result = checkProfile(entry)
    if ('issues' in result) {
      dropped.push(`profile ${label}: ${result.issues.map((issue) => issue.message).join('; ')}`)
    } else if (seen.has(result.profile.id)) {
      dropped.push(`profile ${label}: a second profile with the id "${result.profile.id}"`)
    } else {
      seen.add(result.profile.id)
      profiles.push(result.profile)
    }
  })
  return { profiles, dropped }
}

/** Built-ins in their fixed order (the stored edition when there is one), then the custom profiles. */
function withBuiltIns(stored: Profile[], activeId: unknown): ProfilesData {
  const byId = new Map(stored.map((profile) => [profile.id, profile]))
  const builtIns = BUILT_IN_PROFILES.map((profile) => byId.get(profile.id) ?? structuredClone(profile))
  const custom = stored.filter((profile) => !builtInProfile(profile.id))
  const profiles = [...builtIns, ...custom]
  const active = profiles.some((profile) => profile.id === activeId)
    ? (activeId as string)
    : SANDBOX_PROFILE_ID
  return { activeId: active, profiles }
}

export function parseProfilesFile(text: string): ProfilesFileContent {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { kind: 'corrupt', reason: 'it is not valid JSON' }
  }
  if (!isRecord(json)) return { kind: 'corrupt', reason: 'it does not hold a list of profiles' }
  const { version } = json
  if (typeof version === 'number' && Number.isInteger(version) && version > PROFILES_FILE_VERSION) {
    // Shown as well as we can read it; the newer app's file is never rewritten in our format.
    const entries = Array.isArray(json.profiles) ? readEntries(json.profiles).profiles : []
    return { kind: 'newer', version, data: withBuiltIns(entries, json.activeId) }
  }
  if (version !== PROFILES_FILE_VERSION)
    return { kind: 'corrupt', reason: 'its format version is missing or unknown' }
  if (!Array.isArray(json.profiles)) return { kind: 'corrupt', reason: 'it does not hold a list of profiles' }
  const { profiles, dropped } = readEntries(json.profiles)
  return { kind: 'current', data: withBuiltIns(profiles, json.activeId), dropped }
}

/**
 * The file's content. A built-in left as shipped is not written, so it follows the app's defaults
 * when a later version changes them; an edited one is kept as the user left it.
 */
export function profilesFileContent(data: ProfilesData) {
  const profiles = data.profiles.filter((profile) => !isDeepStrictEqual(profile, builtInProfile(profile.id)))
  return { version: PROFILES_FILE_VERSION, activeId: data.activeId, profiles }
}
