import { resolve } from 'node:path'
import { normaliseBaseUrl } from '#node/profiles/profile-rules.ts'
import type { Profile } from '#shared/profile.ts'
import type { VerdictOptions } from '#shared/sync/file-verdict.ts'
import { SKU_KIND } from '#shared/sync/kinds.ts'
import {
  DEFAULT_REQUIRED_FIELDS,
  heldThere,
  type CreatedThere,
  type HolderState,
} from '#shared/sync/send-gates.ts'
import { CliError } from './io.ts'
import { JournalMismatchError, openJournal, readJournalHeader, type Journal } from './push/journal-outbox.ts'
import { defaultJournalPath } from './push/journal-path.ts'
import { appDataDir, findProfile } from './push/push-credentials.ts'
import { parseRequire } from './push/push-gates.ts'

/**
 * What the verdict of `validate` and `convert` applies beyond the contract (verdict-report.ts):
 * the fields required (`--require`, else the `--profile`'s, else the default) and, only with
 * `--profile` or `--journal`, the destination's records as push's journal keeps them. Both are
 * read only: no lock is taken and nothing is written, so a push may be running.
 */

/** The options as `parseArgs` declares them. */
export const VERDICT_ARGS = {
  require: { type: 'string' },
  profile: { type: 'string' },
  journal: { type: 'string' },
} as const

/** Who requires the fields, as a reason says it, when no profile does. */
const THIS_CHECK = 'this check'

export async function verdictOptions(
  command: string,
  values: { require?: string; profile?: string; journal?: string },
  io: { cwd: string; env?: Record<string, string | undefined> },
): Promise<VerdictOptions> {
  const env = io.env ?? process.env
  const required = values.require === undefined ? undefined : parseRequire(values.require, command)
  const profile: Profile | undefined =
    values.profile === undefined ? undefined : await findProfile(values.profile, env, command)
  const options: VerdictOptions = {
    required: required ?? profile?.requiredFields ?? DEFAULT_REQUIRED_FIELDS,
    requiredBy: required === undefined && profile ? profile.name : THIS_CHECK,
    holdBadCheckDigits: profile?.holdBadCheckDigits === true,
  }
  const path =
    values.journal !== undefined
      ? resolve(io.cwd, values.journal)
      : profile && 'baseUrl' in profile
        ? defaultJournalPath(appDataDir(env), normaliseBaseUrl(profile.baseUrl), SKU_KIND.kind)
        : undefined
  if (path === undefined) return options
  let header: ReturnType<typeof readJournalHeader>
  try {
    header = readJournalHeader(path)
  } catch (error) {
    throw journalError(path, error, command)
  }
  // No journal yet: nothing was sent there by push. One of apps is refused by openJournal.
  if (header === undefined) return { ...options, createdThere: new Map() }
  let journal: Journal
  try {
    journal = await openJournal({ path, baseUrl: header.baseUrl, kind: SKU_KIND.kind, dryRun: true })
  } catch (error) {
    throw journalError(path, error, command)
  }
  try {
    return { ...options, createdThere: createdThereOf(journal, header.baseUrl) }
  } finally {
    await journal.close()
  }
}

function journalError(path: string, error: unknown, command: string): CliError {
  if (error instanceof JournalMismatchError) return new CliError(error.message, command)
  return new CliError(`Cannot read the journal ${path}: ${(error as Error).message}`)
}

/**
 * The barcodes push may have created at the journal's address without it knowing: creations whose
 * outcome is unknown or failed, or that were being sent. Push leaves those as they are (a second
 * creation would be a second copy), so a SKU of the file with such a barcode is held back. A
 * barcode created there (synced) is not: push updates that SKU, or leaves it unchanged.
 */
export function createdThereOf(
  journal: Pick<Journal, 'records'>,
  baseUrl: string,
): Map<string, CreatedThere> {
  const createdThere = new Map<string, CreatedThere>()
  const where = { on: `at ${baseUrl}`, to: baseUrl }
  for (const [barcode, record] of journal.records()) {
    const last = record.last
    if (record.stands !== undefined || last?.action !== 'create') continue
    const state: HolderState | undefined =
      last.state === 'sending'
        ? 'being sent'
        : last.state === 'unknown' || last.state === 'failed'
          ? last.state
          : undefined
    if (state) createdThere.set(barcode, heldThere(state, where, 'an earlier push'))
  }
  return createdThere
}
