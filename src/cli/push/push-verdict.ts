import type { SheetOptions } from '../sheet-options.ts'
import { journalError, type JournalRef } from '../verdict-options.ts'
import { openJournal, type Journal } from './journal-outbox.ts'
import { dryRunJson, standingWords, STANDING_HEADING } from './push-dry-run.ts'
import { judgeAgainstJournal, PUSH_HOLD_HEADINGS } from './push-judgement.ts'
import { readPushInput } from './push-input.ts'
import type { RequirableField } from '#shared/sync/send-gates.ts'

/**
 * `validate` and `convert` with a destination's journal (`--journal`, or the `--profile`'s): the
 * items judged as `push --dry-run` to that destination judges them (push-judgement.ts, the journal
 * read without its lock and never written), so what they call sendable is what a push sends, and
 * what it holds back or leaves as an earlier push left it they hold back, with the same reasons:
 * besides the app's gates, a changed SKU whose platform id is unknown (`no-id`), a creation left
 * unknown or failed, or one refused and unchanged since (`standing`), a changed app (`no-update`).
 * Without a journal, nothing was sent there by push, and the file's own verdict is the push's.
 */

/** One item a push would not send, by its index in the file (from 0). */
export interface PushHeld {
  reason: string
  message: string
}

export interface PushVerdictOptions {
  required: readonly RequirableField[]
  /** Who requires them, as the verdict's reasons say it (a profile's name, "this check"). */
  requiredBy: string
  holdBadCheckDigits?: boolean
  /** Whose usage a journal that cannot be used points at: `validate`, `convert`. */
  command: string
}

/** The headings the verdict's counts line gives push's reasons, `standing` with them. */
export const PUSH_VERDICT_HEADINGS: Readonly<Record<string, string>> = {
  ...PUSH_HOLD_HEADINGS,
  standing: STANDING_HEADING,
}

/** What a push to the journal's destination would hold back of `file`, judged as it would be. */
export async function heldByPush(
  file: string,
  cwd: string,
  sheet: SheetOptions,
  ref: JournalRef,
  { required, requiredBy, holdBadCheckDigits, command }: PushVerdictOptions,
): Promise<Map<number, PushHeld>> {
  const input = await readPushInput(file, cwd, sheet)
  let journal: Journal | undefined
  try {
    try {
      journal = await openJournal({
        path: ref.path,
        baseUrl: ref.baseUrl,
        kind: input.kind.kind,
        dryRun: true,
      })
    } catch (error) {
      throw journalError(ref.path, error, command)
    }
    const opened = journal
    // What the judgement says of itself on standard error is push's to say: the verdict says it here.
    const { judgement } = await judgeAgainstJournal(
      { write: () => true },
      {
        input,
        journal: opened,
        required,
        requiredBy,
        holdBadCheckDigits: holdBadCheckDigits === true,
        baseUrl: ref.baseUrl,
        platform: undefined,
        noUpdates: false,
        dryRun: true,
      },
    )
    const standing = (index: number) => standingWords(opened.record(input.keyOf(index))?.last)
    const { json } = dryRunJson(input, judgement, PUSH_HOLD_HEADINGS, standing)
    return new Map(
      json.holds.map(({ index, reason, message, more }) => [
        index,
        { reason, message, ...(more && { more }) },
      ]),
    )
  } finally {
    await journal?.close()
    input.close()
  }
}
