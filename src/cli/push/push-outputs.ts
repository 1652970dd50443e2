import { access, constants } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { counted } from '#shared/counted.ts'
import { CliError, type Output } from '../io.ts'
import { lockPathOf } from './journal-lock.ts'
import type { Journal } from './journal-outbox.ts'
import type { PushInput } from './push-input.ts'
import { legacyJournalPath } from './push-journal.ts'
import { writeReport, type ReportEntry } from './push-report.ts'
import { writeUnresolved, type UnresolvedFormat } from './unresolved.ts'

/**
 * The files a push writes besides its journal, `--report` and `--unresolved`: refused before
 * anything is sent when they would overwrite the input, the journal or each other, or cannot be
 * written where asked; written at the end, where one that could not be written fails the push
 * (automation reads them) without hiding what was sent.
 */

export interface PushOutputs {
  /** `--report`: where, and as the person gave it (for messages). */
  report?: { path: string; given: string }
  /** `--unresolved`: where, as given, and in which format. */
  unresolved?: { path: string; given: string; format: UnresolvedFormat }
}

/** Refuses outputs that clash with the push's other files, or whose folder cannot be written. */
export async function checkOutputs(
  outputs: PushOutputs,
  files: { cwd: string; input: string; journal: string; platformList?: string },
): Promise<void> {
  const { report, unresolved } = outputs
  const clashes: Array<[string, string]> = [
    [resolve(files.cwd, files.input), 'the input file'],
    [files.journal, 'the journal'],
    [lockPathOf(files.journal), 'the journal’s lock'],
    [legacyJournalPath(files.cwd, files.input), 'where an earlier catalog-desk kept the journal of FILE'],
  ]
  if (report !== undefined) await checkOutputPath('report', report.path, clashes)
  if (unresolved !== undefined) {
    await checkOutputPath('unresolved', unresolved.path, [
      ...clashes,
      ...(report === undefined ? [] : [[report.path, 'the report'] as [string, string]]),
      ...(files.platformList === undefined
        ? []
        : [[resolve(files.cwd, files.platformList), 'the platform’s list'] as [string, string]]),
    ])
  }
}

/**
 * Refuses, before anything is sent, an output file that would overwrite the input, the journal
 * (what keeps a re-run from sending items twice) or another file of this push, or that cannot be
 * written where asked.
 */
async function checkOutputPath(
  option: string,
  path: string,
  clashes: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  for (const [other, what] of clashes) {
    if (other === path) {
      throw new CliError(`--${option} ${path} is ${what}; write it elsewhere.`, 'push')
    }
  }
  try {
    await access(dirname(path), constants.W_OK)
  } catch {
    throw new CliError(`--${option} ${path}: its folder does not exist or cannot be written.`, 'push')
  }
}

/** Writes the outputs asked for; false when one could not be written (said on standard error). */
export async function writeOutputs(
  err: Output,
  outputs: PushOutputs,
  what: { input: PushInput; journal: Journal; entries: readonly ReportEntry[] },
): Promise<boolean> {
  const { report, unresolved } = outputs
  let written = true
  if (report !== undefined) {
    try {
      await writeReport(report.path, what.entries)
    } catch (error) {
      written = false
      err.write(`catalog-desk: cannot write the report ${report.given}: ${(error as Error).message}\n`)
    }
  }
  if (unresolved !== undefined) {
    // Written whatever this run sent (nothing, perhaps): it is the list to check on the platform.
    try {
      const { input, journal, entries } = what
      const count = await writeUnresolved(unresolved.path, unresolved.format, input, journal, entries)
      err.write(
        `${counted(count, what.input.kind.noun)} left unknown or failed, listed in ${unresolved.given}.\n`,
      )
    } catch (error) {
      written = false
      err.write(
        `catalog-desk: cannot write the unresolved list ${unresolved.given}: ${(error as Error).message}\n`,
      )
    }
  }
  return written
}
