import { copyFile, readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { Profile, ProfileInput } from '#shared/profile.ts'
import type { TokenStore } from '../secrets/token-store.ts'
import { writeJsonAtomic } from '../atomic-json.ts'
import { builtInProfile, SANDBOX_PROFILE_ID, tokenAddress, validateProfile } from './profile-rules.ts'
import {
  defaultProfilesData,
  parseProfilesFile,
  PROFILES_FILE_NAME,
  profilesFileContent,
  type ProfilesData,
} from './profiles-file.ts'
import { createKeyedQueue } from '../keyed-queue.ts'
import { messageOf } from '#shared/error-message.ts'

export { InvalidProfileError, type ProfileIssue } from './profile-rules.ts'
export { newProfileId } from './profile-id.ts'

export interface ProfileList {
  profiles: Profile[]
  activeId: string
  /** Something the user should know about the stored profiles (a damaged file was set aside…). */
  notice?: string
  /** The file cannot be written (made by a newer version, or damaged and immovable): changes are refused. */
  readOnly: boolean
}

export interface ProfileStore {
  list(): Promise<ProfileList>
  get(id: string): Promise<Profile | undefined>
  /** Adds or replaces a profile. A new address drops the profile's token: a token is bound to its address. */
  save(profile: ProfileInput): Promise<Profile>
  /** Removes a custom profile and its token; the Sandbox profile becomes active if it was. */
  remove(id: string): Promise<void>
  activate(id: string): Promise<void>
}

export interface ProfileStoreOptions {
  /** Where profiles.json lives (the app passes its userData directory, the CLI its own). */
  dir: string
  tokens: Pick<TokenStore, 'clear'>
  /** For the name of a set-aside file. */
  now?: () => Date
}

interface Loaded {
  data: ProfilesData
  /** Why the file must not be written, when it must not. */
  readOnly?: string
}

function notFound(id: string): Error {
  return new Error(`There is no profile "${id}".`)
}

export function createProfileStore({
  dir,
  tokens,
  now = () => new Date(),
}: ProfileStoreOptions): ProfileStore {
  const file = join(dir, PROFILES_FILE_NAME)
  // One key: every access to the profiles file waits for the one before.
  const queue = createKeyedQueue()
  const serially = <T>(task: () => Promise<T>) => queue('profiles.json', task)
  /** What happened to damaged files this session: told on every list until the app restarts. */
  const notices: string[] = []

  function asideName(): string {
    return `${file}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`
  }

  /** Moves a file that cannot be used out of the way, so it is kept for the user and never overwritten. */
  async function setAside(reason: string): Promise<Loaded> {
    const aside = asideName()
    try {
      await rename(file, aside)
    } catch (error) {
      return {
        data: defaultProfilesData(),
        readOnly: `The saved profiles could not be used (${reason}) and the file could not be moved aside (${messageOf(error)}): the built-in profiles are shown and changes are not saved until ${file} is fixed or removed.`,
      }
    }
    notices.push(
      `The saved profiles could not be used (${reason}): the built-in profiles were restored and the old file was kept as ${aside}.`,
    )
    return { data: defaultProfilesData() }
  }

  /** Keeps the file as it was, then rewrites it without the entries that could not be used. */
  async function dropEntries(data: ProfilesData, dropped: string[]): Promise<Loaded> {
    const aside = asideName()
    const left = `${dropped.length} saved profile${dropped.length === 1 ? '' : 's'} could not be used`
    try {
      await copyFile(file, aside)
    } catch (error) {
      return {
        data,
        readOnly: `${left} (${dropped.join('; ')}) and a copy of the file could not be kept (${messageOf(error)}): changes are not saved until ${file} is fixed.`,
      }
    }
    // Rewritten now, so the next read does not set the same entries aside again.
    await writeJsonAtomic(file, profilesFileContent(data))
    notices.push(
      `${left} and ${dropped.length === 1 ? 'was' : 'were'} left out (${dropped.join('; ')}); the file as it was is kept as ${aside}.`,
    )
    return { data }
  }

  // Read on every call rather than cached: the file may also be changed by the CLI.
  async function load(): Promise<Loaded> {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { data: defaultProfilesData() }
      return setAside(`it could not be read: ${messageOf(error)}`)
    }
    const content = parseProfilesFile(text)
    switch (content.kind) {
      case 'corrupt':
        return setAside(content.reason)
      case 'newer':
        return {
          data: content.data,
          readOnly: `The saved profiles were written by a newer version of Catalog Desk (format ${content.version}): they are shown read-only and the file is left as it is. Update Catalog Desk to change them.`,
        }
      case 'current':
        return content.dropped.length > 0
          ? dropEntries(content.data, content.dropped)
          : { data: content.data }
    }
  }

  function read<T>(pick: (data: ProfilesData, loaded: Loaded) => T): Promise<T> {
    return serially(async () => {
      const loaded = await load()
      return pick(loaded.data, loaded)
    })
  }

  /** One read-modify-write, queued behind every other: `change` throws to leave the file untouched. */
  function change<T>(apply: (data: ProfilesData) => Promise<T>): Promise<T> {
    return serially(async () => {
      const loaded = await load()
      if (loaded.readOnly) throw new Error(loaded.readOnly)
      const result = await apply(loaded.data)
      await writeJsonAtomic(file, profilesFileContent(loaded.data))
      return result
    })
  }

  return {
    list: () =>
      read((data, loaded) => {
        const notice = [loaded.readOnly, ...notices].filter(Boolean).join(' ')
        return { ...structuredClone(data), readOnly: Boolean(loaded.readOnly), ...(notice ? { notice } : {}) }
      }),

    get: (id) => read((data) => structuredClone(data.profiles.find((profile) => profile.id === id))),

    async save(input) {
      const profile = validateProfile(input)
      return change(async (data) => {
        const index = data.profiles.findIndex((stored) => stored.id === profile.id)
        const previous = data.profiles[index]
        // Cleared before the new address is written: if writing fails, the token is gone, not misdirected.
        // A new profile also starts clean, whatever a removed namesake may have left behind.
        if (!previous || tokenAddress(previous) !== tokenAddress(profile)) await tokens.clear(profile.id)
        if (previous) data.profiles[index] = profile
        else data.profiles.push(profile)
        return structuredClone(profile)
      })
    },

    async remove(id) {
      const builtIn = builtInProfile(id)
      if (builtIn) throw new Error(`The ${builtIn.name} profile is built in and cannot be removed.`)
      return change(async (data) => {
        const index = data.profiles.findIndex((profile) => profile.id === id)
        if (index === -1) throw notFound(id)
        await tokens.clear(id)
        data.profiles.splice(index, 1)
        if (data.activeId === id) data.activeId = SANDBOX_PROFILE_ID
      })
    },

    activate: (id) =>
      change(async (data) => {
        if (!data.profiles.some((profile) => profile.id === id)) throw notFound(id)
        data.activeId = id
      }),
  }
}
