import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { counted } from '#shared/counted.ts'
import { RECOVERED_MESSAGE, type ItemState } from '#shared/sync/ports.ts'
import { CliError, shellWord, type Output } from '../io.ts'
import { JournalBusyError } from './journal-lock.ts'
import { legacyAdoption, readLegacyJournal } from './journal-legacy.ts'
import { JournalMismatchError, openJournal, type Journal, type JournalRecord } from './journal-outbox.ts'
import { defaultJournalPath, loopbackJournals } from './journal-path.ts'
import type { PushInput } from './push-input.ts'

/**
 * Where a push's journal is and how the command opens it: the destination's own (journal-path.ts)
 * unless `--journal` names one, a journal of the earlier format carried over (journal-legacy.ts),
 * and its path said at the start. What the journal is (its lines, its outbox) is
 * journal-outbox.ts's; this is what the command says and refuses about it.
 */

/** Where earlier versions kept the journal of FILE by default (journal-legacy.ts). */
export const legacyJournalPath = (cwd: string, file: string) => `${resolve(cwd, file)}.push-journal.jsonl`

export interface PushJournalOptions {
  input: PushInput
  file: string
  baseUrl: string
  path: string
  /** The app's data folder, where each destination's own journal is kept (journal-path.ts). */
  dataDir: string
  /** Named by `--journal`: the person's choice, whichever journal it is. */
  named: boolean
  cwd: string
  /** Read the journal, and create, lock or write nothing. */
  dryRun: boolean
}

/**
 * The destination's journal, opened; a journal of the earlier format is carried over when it was
 * written for this input as it is (journal-legacy.ts): the one `--journal` names, or without it
 * the one an earlier version kept beside FILE. What cannot be used stops the command (exit 2).
 */
export async function openPushJournal(out: Output, options: PushJournalOptions): Promise<Journal> {
  const { input, baseUrl, path, dryRun } = options
  // The destination's own journal, by default or named: its folder is made, and a journal an
  // earlier version kept beside FILE is carried over into it.
  const own = path === defaultJournalPath(options.dataDir, baseUrl, input.kind.kind)
  const others =
    options.named || existsSync(path) ? [] : await journalsUnderOtherNames(options.dataDir, baseUrl, input)
  if (!dryRun && others.length > 0) throw new CliError(otherNamesMessage(others, path), 'push')
  let journal: Journal
  try {
    if (own && !dryRun) await mkdir(dirname(path), { recursive: true })
    journal = await openJournal({
      path,
      baseUrl,
      kind: input.kind.kind,
      adoptLegacy: (legacy) => legacyAdoption(path, legacy, input, RECOVERED_MESSAGE),
      dryRun,
    })
  } catch (error) {
    throw journalRefusal(path, error)
  }
  try {
    if (own) await adoptBesideFile(out, journal, options)
  } catch (error) {
    await journal.close()
    throw journalRefusal(path, error)
  }
  const read = dryRun ? '; read, not written: a dry run' : ''
  out.write(
    journal.resumed
      ? `Journal of ${baseUrl}: ${path} (${counted(journal.size, input.kind.noun)} sent there before${read}).\n`
      : `Journal of ${baseUrl}: ${path} (${dryRun ? 'none yet; a dry run creates none' : 'new'}).\n`,
  )
  if (dryRun && others.length > 0) out.write(`${otherNamesMessage(others, path)} (A push stops here.)\n`)
  return journal
}

/**
 * This computer's journals under its other names (localhost, 127.0.0.1, [::1]) for the same
 * scheme, port and path, that record SKUs which stand there or may (created, unknown, failed):
 * the same service, most likely, where a push under this name would create them again.
 */
async function journalsUnderOtherNames(
  dataDir: string,
  baseUrl: string,
  input: PushInput,
): Promise<OtherJournal[]> {
  const found: OtherJournal[] = []
  for (const other of loopbackJournals(dataDir, baseUrl, input.kind.kind)) {
    // Read only; one of another scheme (its file's name is the same) or unreadable is not this service's.
    const journal = await openJournal({ ...other, kind: input.kind.kind, dryRun: true }).catch(
      () => undefined,
    )
    if (!journal) continue
    try {
      if ([...journal.records()].some(([, record]) => mayStandThere(record))) found.push(other)
    } finally {
      await journal.close()
    }
  }
  return found
}

interface OtherJournal {
  baseUrl: string
  path: string
}

/** Whether what a journal records of an item says it stands there, or may: sent, with no clear "no". */
const mayStandThere = (record: JournalRecord) =>
  record.stands !== undefined || (record.last !== undefined && !NOT_THERE.has(record.last.state))

/** An item never sent, or refused whole: not there. */
const NOT_THERE: ReadonlySet<ItemState> = new Set(['queued', 'rejected'])

/**
 * A first push to this computer under one name when journals of it under others exist: whether it
 * is the same service stays the person's to say, with --journal.
 */
function otherNamesMessage(others: readonly OtherJournal[], path: string): string {
  const which = others.map((other) => `${shellWord(other.path)} (${other.baseUrl})`).join(' and ')
  return `There is no journal of this address yet, and this computer under another name has one that records SKUs created there, or that may be: ${which}. If that is this service, a push would create them again. Push with --journal naming it to use it, or with --journal ${shellWord(path)} to keep one of this address's own.`
}

/** Carries over the journal an earlier version kept beside FILE, once, leaving that file as it was. */
async function adoptBesideFile(out: Output, journal: Journal, options: PushJournalOptions): Promise<void> {
  const { input, file, baseUrl, dryRun } = options
  const besideFile = legacyJournalPath(options.cwd, file)
  const legacy = readLegacyJournal(besideFile, { baseUrl, kind: input.kind.kind })
  if (!legacy || journal.adopted(legacy.header.fingerprint)) return
  const adoption = legacyAdoption(besideFile, legacy, input, RECOVERED_MESSAGE)
  await journal.adopt(adoption)
  out.write(
    `The journal an earlier catalog-desk kept beside ${file} ${dryRun ? 'would be' : 'is'} carried over (${counted(adoption.records.length, input.kind.noun)} it sent, by ${input.kind.gated ? 'barcode' : 'name'}); ${besideFile} is left as it was.\n`,
  )
}

/** A journal of another address, one in use, or an earlier version's for another file, in the journal's own words. */
function journalRefusal(path: string, error: unknown): CliError {
  if (error instanceof JournalMismatchError || error instanceof JournalBusyError) {
    return new CliError(error.message, 'push')
  }
  return new CliError(`Cannot use the journal ${path}: ${(error as Error).message}`)
}
