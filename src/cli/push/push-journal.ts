import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { counted } from '#shared/counted.ts'
import { RECOVERED_MESSAGE } from '#shared/sync/ports.ts'
import { CliError, type Output } from '../io.ts'
import { JournalBusyError } from './journal-lock.ts'
import { legacyAdoption, readLegacyJournal } from './journal-legacy.ts'
import { JournalMismatchError, openJournal, type Journal } from './journal-outbox.ts'
import { loopbackJournals } from './journal-path.ts'
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
  /**
   * The app's data folder, where the destination's own journal is kept; undefined when `--journal`
   * names the journal: its folder is not created, and no journal beside FILE is carried over.
   */
  dataDir?: string
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
  const named = options.dataDir === undefined
  const others =
    options.dataDir === undefined || existsSync(path)
      ? []
      : loopbackJournals(options.dataDir, baseUrl, input.kind.kind)
  if (!dryRun && others.length > 0) throw new CliError(otherNameMessage(others[0]!, path), 'push')
  let journal: Journal
  try {
    if (!named && !dryRun) await mkdir(dirname(path), { recursive: true })
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
    if (!named) await adoptBesideFile(out, journal, options)
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
  if (dryRun) for (const other of others) out.write(`${otherNameMessage(other, path)} (A push stops here.)\n`)
  return journal
}

/**
 * A first push to this computer under one name when a journal of it under another exists: the
 * same service, most likely, and a push would create again what that journal records as created.
 * Whether it is stays the person's to say, with --journal.
 */
function otherNameMessage(other: { baseUrl: string; path: string }, path: string): string {
  return `There is no journal of this address yet, and ${other.path} is the journal of ${other.baseUrl}, this computer under another name: if that is this service, a push would create again what it records as created. Push with --journal ${other.path} to use it, or with --journal ${path} to keep one of this address's own.`
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
