import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  DEFAULT_BUDGETS,
  validateBudgets,
  type AssetBudgets,
  type BudgetName,
} from '#shared/asset-checks/budgets.ts'
import { isRecord } from '#shared/is-record.ts'
import { normaliseFeedAddress, updateFeedProblem } from '#shared/update-feed.ts'
import { writeJsonAtomic } from './atomic-json.ts'

/** The app's own settings that are not a profile. */
export interface Preferences {
  /**
   * Whether main may fetch from this computer and local networks what drafts name (preview
   * models, pictures). Off unless the person turns it on: see net/guarded-fetch.ts.
   */
  allowLocalAddresses: boolean
  /** What "Check assets" judges models and pictures by (Settings › Asset budgets). */
  assetBudgets: AssetBudgets
  /** Settings › Updates, and when the feed was last asked. */
  updates: UpdatePreferences
}

export interface UpdatePreferences {
  /**
   * Check for updates by itself, at most once a day. On by default: a fix reaches people who never
   * open Settings; a check only asks the feed for a small file, and can be turned off.
   */
  automatic: boolean
  /** The feed's address from Settings; empty for the build's own feed. */
  feedAddress: string
  /** When the feed was last asked (milliseconds since 1970), automatically or not; absent before any check. */
  lastCheckAt?: number
}

export const PREFERENCES_FILE_NAME = 'preferences.json'
const defaults = (): Preferences => ({
  allowLocalAddresses: false,
  assetBudgets: structuredClone(DEFAULT_BUDGETS),
  updates: { automatic: true, feedAddress: '' },
})

export interface PreferenceStore {
  /** The settings as they are now (read once when the store opens); a copy of the caller's own. */
  current(): Preferences
  /** Changes some settings and writes them; resolves once they are on disk. */
  update(change: Partial<Preferences>): Promise<Preferences>
}

/**
 * The preferences in `<dir>/preferences.json`. A file that cannot be read or holds something else
 * counts as the defaults, which are the safe choice for each setting: a damaged file never stops
 * the app from starting, and it is replaced by the next change. Each setting is read on its own,
 * so a damaged one does not take the others with it.
 */
export async function openPreferences(dir: string): Promise<PreferenceStore> {
  const file = join(dir, PREFERENCES_FILE_NAME)
  let preferences = await readPreferences(file)
  let writing: Promise<unknown> = Promise.resolve()
  return {
    current: () => structuredClone(preferences),
    update(change) {
      preferences = structuredClone({ ...preferences, ...change })
      const saved = structuredClone(preferences)
      // One write at a time, in order: the last change is what the file ends with.
      const write = writing.catch(() => undefined).then(() => writeJsonAtomic(file, stored(saved)))
      writing = write
      return write.then(() => saved)
    },
  }
}

/**
 * The file's contents. Of the budgets only those that differ from their defaults are written,
 * each whole (both figures, as the person saved them together, so the pair stays one the checks
 * accept whatever a later version's defaults are): a budget left at its default then follows the
 * defaults of the version that reads it, when a platform's published figure is revised there,
 * rather than being pinned at the figure of the day the person saved some other budget.
 */
function stored(preferences: Preferences) {
  const changed: Partial<AssetBudgets> = {}
  for (const name of Object.keys(DEFAULT_BUDGETS) as BudgetName[]) {
    const budget = preferences.assetBudgets[name]
    const standard = DEFAULT_BUDGETS[name]
    if (budget.recommended !== standard.recommended || budget.maximum !== standard.maximum)
      changed[name] = budget
  }
  return {
    format: 1,
    allowLocalAddresses: preferences.allowLocalAddresses,
    assetBudgets: changed,
    updates: preferences.updates,
  }
}

async function readPreferences(file: string): Promise<Preferences> {
  let stored: unknown
  try {
    stored = JSON.parse(await readFile(file, 'utf8'))
  } catch {
    return defaults()
  }
  if (!isRecord(stored)) return defaults()
  // Budgets that cannot be read all go back to the defaults: one wrong figure casts doubt on the
  // others, and validateBudgets never guesses a budget. A file from before budgets has none.
  const { budgets } = validateBudgets(stored.assetBudgets ?? {})
  return {
    allowLocalAddresses: stored.allowLocalAddresses === true,
    assetBudgets: budgets ?? defaults().assetBudgets,
    updates: readUpdates(stored.updates),
  }
}

/**
 * Each update setting on its own: checks stay on unless turned off in so many words, an address
 * main would not ask is no address (the build's own feed), a time that is not one is no check.
 */
function readUpdates(stored: unknown): UpdatePreferences {
  const updates = isRecord(stored) ? stored : {}
  const address = typeof updates.feedAddress === 'string' ? normaliseFeedAddress(updates.feedAddress) : ''
  const lastCheckAt = updates.lastCheckAt
  return {
    automatic: updates.automatic !== false,
    feedAddress: updateFeedProblem(address) === undefined ? address : '',
    ...(typeof lastCheckAt === 'number' && Number.isFinite(lastCheckAt) && lastCheckAt > 0
      ? { lastCheckAt }
      : {}),
  }
}
