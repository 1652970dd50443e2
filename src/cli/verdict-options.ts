import { resolve } from 'node:path'
import { normaliseBaseUrl } from '#node/profiles/profile-rules.ts'
import type { Profile } from '#shared/profile.ts'
import type { VerdictOptions } from '#shared/sync/file-verdict.ts'
import { DRAFT_KINDS } from '#shared/sync/kinds.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import { DEFAULT_REQUIRED_FIELDS, type RequirableField } from '#shared/sync/send-gates.ts'
import { CliError } from './io.ts'
import { JournalMismatchError, readJournalHeader } from './push/journal-outbox.ts'
import { defaultJournalPath } from './push/journal-path.ts'
import { appDataDir, findProfile } from './push/push-credentials.ts'
import { parseRequire } from './push/push-gates.ts'

/**
 * What the verdict of `validate` and `convert` applies beyond the contract (verdict-report.ts):
 * the fields required (`--require`, else the `--profile`'s, else the default) and, only with
 * `--profile` or `--journal`, the destination's journal, against which the items are judged as a
 * push there judges them (push/push-verdict.ts). The journal is read only: no lock is taken and
 * nothing is written, so a push may be running.
 */

/** The options as `parseArgs` declares them. */
export const VERDICT_ARGS = {
  require: { type: 'string' },
  'hold-bad-check-digits': { type: 'boolean' },
  profile: { type: 'string' },
  journal: { type: 'string' },
} as const

/** A destination's journal, as `--journal` or a profile names it. */
export interface JournalRef {
  path: string
  baseUrl: string
}

/** Who requires the fields, as a reason says it, when no profile does. */
const THIS_CHECK = 'this check'

export interface CliVerdictOptions extends VerdictOptions {
  required: readonly RequirableField[]
  /**
   * The destination's journals that push has written, by the kind of what they hold: `--journal`'s
   * for either (a file of the other kind is refused as push refuses it), a profile's its own two.
   */
  journals?: Partial<Record<SyncKind, JournalRef>>
}

export async function verdictOptions(
  command: string,
  values: { require?: string; 'hold-bad-check-digits'?: boolean; profile?: string; journal?: string },
  io: { cwd: string; env?: Record<string, string | undefined> },
): Promise<CliVerdictOptions> {
  const env = io.env ?? process.env
  const required = values.require === undefined ? undefined : parseRequire(values.require, command)
  const profile: Profile | undefined =
    values.profile === undefined ? undefined : await findProfile(values.profile, env, command)
  const options: CliVerdictOptions = {
    required: required ?? profile?.requiredFields ?? DEFAULT_REQUIRED_FIELDS,
    requiredBy: required === undefined && profile ? profile.name : THIS_CHECK,
    // The profile's choice, or this check's: the flag holds them back whatever the profile says.
    holdBadCheckDigits: values['hold-bad-check-digits'] === true || profile?.holdBadCheckDigits === true,
  }
  const paths: Partial<Record<SyncKind, string>> =
    values.journal !== undefined
      ? { skus: resolve(io.cwd, values.journal), apps: resolve(io.cwd, values.journal) }
      : profile && 'baseUrl' in profile
        ? Object.fromEntries(
            Object.keys(DRAFT_KINDS).map((kind) => [
              kind,
              defaultJournalPath(appDataDir(env), normaliseBaseUrl(profile.baseUrl), kind as SyncKind),
            ]),
          )
        : {}
  const journals: Partial<Record<SyncKind, JournalRef>> = {}
  for (const [kind, path] of Object.entries(paths) as [SyncKind, string][]) {
    let header: ReturnType<typeof readJournalHeader>
    try {
      header = readJournalHeader(path)
    } catch (error) {
      throw journalError(path, error, command)
    }
    // No journal yet: nothing was sent there by push, so it would judge the file as the file does.
    if (header !== undefined) journals[kind] = { path, baseUrl: header.baseUrl }
  }
  return Object.keys(journals).length > 0 ? { ...options, journals } : options
}

/** A journal that cannot be used, said for `command`. */
export function journalError(path: string, error: unknown, command: string): CliError {
  if (error instanceof JournalMismatchError) return new CliError(error.message, command)
  return new CliError(`Cannot read the journal ${path}: ${(error as Error).message}`)
}
