import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isRecord } from '#shared/is-record.ts'
import { writeJsonAtomic } from './atomic-json.ts'

/** The app's own settings that are not a profile. */
export interface Preferences {
  /**
   * Whether main may fetch from this computer and local networks what drafts name (preview
   * models, pictures). Off unless the person turns it on: see net/guarded-fetch.ts.
   */
  allowLocalAddresses: boolean
}

export const PREFERENCES_FILE_NAME = 'preferences.json'
const DEFAULTS: Preferences = { allowLocalAddresses: false }

export interface PreferenceStore {
  /** The settings as they are now (read once when the store opens). */
  current(): Preferences
  /** Changes some settings and writes them; resolves once they are on disk. */
  update(change: Partial<Preferences>): Promise<Preferences>
}

/**
 * The preferences in `<dir>/preferences.json`. A file that cannot be read or holds something else
 * counts as the defaults, which are the safe choice for each setting: a damaged file never stops
 * the app from starting, and it is replaced by the next change.
 */
export async function openPreferences(dir: string): Promise<PreferenceStore> {
  const file = join(dir, PREFERENCES_FILE_NAME)
  let preferences = await readPreferences(file)
  let writing: Promise<unknown> = Promise.resolve()
  return {
    current: () => ({ ...preferences }),
    update(change) {
      preferences = { ...preferences, ...change }
      const saved = { ...preferences }
      // One write at a time, in order: the last change is what the file ends with.
      const write = writing.catch(() => undefined).then(() => writeJsonAtomic(file, { format: 1, ...saved }))
      writing = write
      return write.then(() => saved)
    },
  }
}

async function readPreferences(file: string): Promise<Preferences> {
  let stored: unknown
  try {
    stored = JSON.parse(await readFile(file, 'utf8'))
  } catch {
    return { ...DEFAULTS }
  }
  if (!isRecord(stored)) return { ...DEFAULTS }
  return { allowLocalAddresses: stored.allowLocalAddresses === true }
}
