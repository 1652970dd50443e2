import { counted } from '#shared/counted.ts'
import { thousands } from '#shared/sheet/places.ts'
import { lineOf } from '../sheet-report.ts'
import { holdGroups, holdLines, verdictLine, type HoldGroup } from '../verdict-report.ts'
import type { JournalRecord } from './journal-outbox.ts'
import type { ItemPlan, PushHoldReason, PushJudgement } from './push-gates.ts'
import type { PushInput } from './push-input.ts'
import type { PlatformListJson } from './push-report.ts'

/**
 * What `push --dry-run` says: what the push would do with each item, judged exactly as a push
 * judges it (push-gates.ts, against the destination's journal read and never written), with
 * nothing sent. Its counts line is the one verdict's, as `validate` gives it: SKUs a push would
 * create, update or leave unchanged are sendable; those it would hold back, or leave as an
 * earlier push left them (an outcome unknown, failed or refused), are not.
 */

export interface DryRunJson {
  dryRun: true
  total: number
  valid: number
  invalid: number
  sendable: number
  heldBack: number
  /** Would be created, updated; are unchanged since sent there (nothing sent); would be marked created by the platform's list. */
  create: number
  update: number
  unchanged: number
  marked: number
  /** Changed since sent there, left as they are by --no-updates. */
  notUpdated: number
  /** Left as an earlier push left them: a creation whose outcome is unknown or failed, an update refused. */
  standing: number
  /**
   * Each item held back or left as it stands, in input order: its index, a sheet's row (and a
   * spreadsheet's line, a pair's file), why.
   */
  holds: {
    index: number
    row?: number
    line?: number
    file?: string
    reason: string
    message: string
    /** Its other reasons, when it has more than one. */
    more?: { reason: string; message: string }[]
  }[]
  platformList?: PlatformListJson
}

/** How the reasons only a push has are counted. */
const STANDING = 'standing'
/** How the counts line says them. */
export const STANDING_HEADING = 'left as an earlier push left it (unknown, failed or refused)'

export function dryRunJson(
  input: PushInput,
  judgement: PushJudgement,
  headings: Readonly<Record<PushHoldReason, string>>,
  standingMessage: (index: number) => string,
  platformList?: PlatformListJson,
): { json: DryRunJson; groups: HoldGroup[] } {
  const count = (plan: ItemPlan) => judgement.plans.filter((planned) => planned === plan).length
  const holds: DryRunJson['holds'] = []
  judgement.plans.forEach((plan, index) => {
    if (plan !== 'held' && plan !== 'standing') return
    const row = input.rowOf(index)
    const hold =
      plan === 'held' ? judgement.held.get(index)! : { reason: STANDING, message: standingMessage(index) }
    const place = row === undefined ? {} : { row, ...lineOf(row, input.file.numbering ?? 'lines') }
    const more = 'more' in hold ? hold.more?.map(({ reason, message }) => ({ reason, message })) : undefined
    holds.push({ index, ...place, reason: hold.reason, message: hold.message, ...(more && { more }) })
  })
  const invalid = input.invalid.length
  const valid = input.items.total - invalid
  const json: DryRunJson = {
    dryRun: true,
    total: input.items.total,
    valid,
    invalid,
    sendable: valid - holds.length,
    heldBack: holds.length,
    create: count('create'),
    update: count('update'),
    unchanged: count('unchanged'),
    marked: count('marked'),
    notUpdated: count('not-updated'),
    standing: count('standing'),
    holds,
    ...(platformList ? { platformList } : {}),
  }
  const groups = holdGroups(
    holds.flatMap((hold) =>
      [hold, ...(hold.more ?? [])].map((one) => [hold.row ?? hold.index, one] as const),
    ),
    { headings: { ...headings, [STANDING]: STANDING_HEADING } },
  )
  return { json, groups }
}

/** Why a dry run says an item is left as it stands: what an earlier push left of it. */
export function standingWords(last: JournalRecord['last']): string {
  const what = last?.action === 'update' ? 'An update' : 'A creation'
  const state = last?.state === 'sending' || last === undefined ? 'unknown' : last.state
  const why = last?.message ? `: ${last.message}` : ''
  return `${what} an earlier push sent is ${state}${why}; it is left as it is`
}

/** The text on standard output: what would be sent, then the verdict's counts and reasons. */
export function dryRunText(input: PushInput, json: DryRunJson, groups: readonly HoldGroup[]): string {
  const noun = input.kind.noun
  const parts = [`${thousands(json.create)} to create`]
  if (input.kind.operations.update !== undefined) parts.push(`${thousands(json.update)} to update`)
  parts.push(`${thousands(json.unchanged)} unchanged since sent there (not sent)`)
  if (json.marked > 0) parts.push(`${thousands(json.marked)} marked created by the platform's list`)
  if (json.notUpdated > 0) parts.push(`${thousands(json.notUpdated)} changed but not updated (--no-updates)`)
  if (json.heldBack > 0) parts.push(`${thousands(json.heldBack)} held back`)
  if (json.invalid > 0) parts.push(`${thousands(json.invalid)} not valid`)
  const numbering = input.rowOf(0) === undefined ? undefined : (input.file.numbering ?? 'lines')
  const counts = verdictLine(json, groups, noun)
  return [
    'Dry run: nothing was sent, and the journal was not written.',
    `${counted(json.total, noun)}: ${parts.join(', ')}.`,
    counts,
    ...holdLines(groups, { ...(numbering && { numbering }), all: false }),
  ]
    .join('\n')
    .concat('\n')
}
