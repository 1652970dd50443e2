import { barcodeSwaps } from './barcode-swaps.ts'
import { counted } from '#shared/counted.ts'
import { thousands } from '#shared/sheet/places.ts'
import { RECOVERED_MESSAGE } from '#shared/sync/ports.ts'
import {
  gateFieldTitle,
  HOLD_HEADINGS,
  HOLD_REASONS,
  type Hold,
  type RequirableField,
} from '#shared/sync/send-gates.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import { CliError, type Output } from '../io.ts'
import type { Journal } from './journal-outbox.ts'
import {
  judgePush,
  type PlatformList,
  type PushHold,
  type PushHoldReason,
  type PushJudgement,
} from './push-gates.ts'
import type { PushInput } from './push-input.ts'
import type { PlatformListJson } from './push-report.ts'
import { listOnStderr } from './push-stderr.ts'

/**
 * The push's judgement, made against the destination's journal and said before anything is sent:
 * what a dead process left sending becomes unknown, `judgePush` (push-gates.ts) decides each
 * item's plan, a platform list's decision and ids are written to the journal (before anything
 * they send again leaves), and standard error says what is held back, what the list decided and
 * what the updates leave on the platform. A push and its dry run share it, so both judge alike.
 */

/** Headings of the reasons push holds an item back. */
export const PUSH_HOLD_HEADINGS: Readonly<Record<PushHoldReason, string>> = {
  ...HOLD_HEADINGS,
  required: 'missing a field this push requires',
  'no-id': "changed, with the platform's id unknown",
  'no-update': 'changed, and the service cannot update them',
}
const HOLD_ORDER: readonly PushHoldReason[] = [...HOLD_REASONS, 'no-id', 'no-update']

/** What the journal says of the creations a platform list marks created. */
export const markedMessage = (platform: PlatformList) =>
  `Marked as created: on the platform's list ${platform.source}`

export interface JudgementContext {
  input: PushInput
  journal: Journal
  required: readonly RequirableField[]
  /** Who requires them, as a reason says it (`GateContext.requiredBy`). */
  requiredBy?: string
  /** The profile's choice: a wrong GTIN check digit holds a SKU back. */
  holdBadCheckDigits: boolean
  baseUrl: string
  platform: PlatformList | undefined
  noUpdates: boolean
  /** A dry run: what it lists in part, its --json lists whole (--report is not written). */
  dryRun: boolean
}

export interface PushVerdict {
  judgement: PushJudgement
  platformList?: PlatformListJson
}

/**
 * Recovers what an earlier run left sending, then judges (see above). A journal that cannot be
 * written is closed, and stops the command (exit 2).
 */
export async function judgeAgainstJournal(out: Output, context: JudgementContext): Promise<PushVerdict> {
  const { journal } = context
  try {
    // What a dead process left sending is unknown before anything is judged (the engine would say
    // so only once it starts): a gate or a list must see it as what it is.
    await recoverInterrupted(out, context)
    return await judge(out, context)
  } catch (error) {
    await journal.close()
    if (error instanceof CliError) throw error
    throw new CliError(`Cannot use the journal ${journal.path}: ${(error as Error).message}`)
  }
}

async function recoverInterrupted(out: Output, { input, journal, dryRun }: JudgementContext): Promise<void> {
  const recovered = await journal.recoverInterrupted(RECOVERED_MESSAGE)
  if (recovered.create > 0) {
    out.write(
      `${counted(recovered.create, input.kind.noun)} left sending by an earlier run ${dryRun ? 'would be marked' : 'marked'} unknown: check them on the platform.\n`,
    )
  }
  if (recovered.update > 0) {
    out.write(
      `${counted(recovered.update, 'update')} left sending by an earlier run: sent again in this push (an update is idempotent).\n`,
    )
  }
}

async function judge(out: Output, context: JudgementContext): Promise<PushVerdict> {
  const { input, journal, required, requiredBy, holdBadCheckDigits, baseUrl, platform, noUpdates } = context
  const judgement = judgePush({
    input,
    journal,
    required,
    ...(requiredBy === undefined ? {} : { requiredBy }),
    holdBadCheckDigits,
    address: baseUrl,
    noUpdates,
    ...(platform ? { platform } : {}),
  })
  const platformList = platform ? await recordPlatformList(out, context, platform, judgement) : undefined
  sayHeld(out, context, judgement)
  sayUpdates(out, input, judgement)
  sayBarcodeSwaps(out, context, judgement)
  return platformList ? { judgement, platformList } : { judgement }
}

/** Writes the list's decision and ids to the journal, and says what it decided and what it keeps back. */
async function recordPlatformList(
  out: Output,
  { input, journal }: JudgementContext,
  platform: PlatformList,
  judgement: PushJudgement,
): Promise<PlatformListJson> {
  const { created, resend, keptBack, unmatched, ids } = judgement
  if (created.length + resend.length > 0) {
    await journal.decide({
      at: systemClock.now(),
      source: platform.source,
      message: markedMessage(platform),
      created,
      resend,
    })
  }
  await journal.setIds(platform.source, ids)
  const idWords = platform.ids ? `, ${counted(ids.size, 'platform id')} recorded` : ''
  out.write(
    `The platform's list ${platform.source} (${counted(platform.barcodes.size, 'barcode')}): ${thousands(created.length)} marked created, ${thousands(resend.length)} sent again, ${counted(unmatched.length, 'barcode')} on the list matched no unknown or failed SKU${idWords}.\n`,
  )
  if (keptBack.size > 0) {
    listOnStderr(
      out,
      keptBack.size === 1
        ? '1 unknown or failed SKU not on the list is held back, not sent again (it stays as it was):'
        : `${thousands(keptBack.size)} unknown or failed SKUs not on the list are held back, not sent again (they stay as they were):`,
      heldLines(input, keptBack),
    )
  }
  return {
    file: platform.source,
    markedCreated: created.length,
    sentAgain: resend.length,
    keptBack: keptBack.size,
    unmatched: unmatched.length,
    idsSet: ids.size,
  }
}

/** What is held back, counted by reason and listed, with the fields this push requires. */
function sayHeld(out: Output, { input, required, dryRun }: JudgementContext, { held }: PushJudgement): void {
  if (held.size === 0) return
  // Each reason counts the SKUs it holds, as the verdict's line does: some may be held for two.
  const reasons = [...held.values()].flatMap((hold) => [hold, ...(hold.more ?? [])])
  const counts = HOLD_ORDER.flatMap((reason) => {
    const count = reasons.filter((hold) => hold.reason === reason).length
    return count > 0 ? [`${thousands(count)} ${PUSH_HOLD_HEADINGS[reason]}`] : []
  })
  const several = reasons.length > held.size ? ', some for more than one reason' : ''
  // The fields required are a SKU's gates: an app is held only as changed since it was created.
  const requires = !input.kind.gated
    ? ''
    : required.length === 0
      ? ' (only a product name and a barcode are required)'
      : ` (required besides a product name and a barcode: ${required.map(gateFieldTitle).join(', ')})`
  listOnStderr(
    out,
    `${thousands(held.size)} of ${counted(input.items.total, input.kind.noun)} ${held.size === 1 ? 'is' : 'are'} held back and not sent${requires}${several}: ${counts.join('; ')}.`,
    heldLines(input, held),
    dryRun ? '(--json lists them all)' : undefined,
  )
}

/** What the updates do that a person may not expect: sent again whole, fields kept, changes left out. */
function sayUpdates(out: Output, input: PushInput, { resent, kept, plans }: PushJudgement): void {
  if (resent.size > 0) {
    out.write(
      `${counted(resent.size, 'update')} whose outcome an earlier push left unknown or failed ${resent.size === 1 ? 'is' : 'are'} sent again, whole: an update is idempotent (sent twice, it leaves the SKU as once).\n`,
    )
  }
  if (kept.size > 0) {
    listOnStderr(
      out,
      `${counted(kept.size, input.kind.noun)} ${kept.size === 1 ? 'leaves' : 'leave'} fields empty that the platform keeps (an update changes the fields it sends and cannot remove one):`,
      [...kept].map(([index, paths]) => `[${index}] ${input.labelOf(index)}: ${paths.join(', ')}`),
    )
  }
  const notUpdated = plans.filter((plan) => plan === 'not-updated').length
  if (notUpdated > 0) {
    out.write(
      `${counted(notUpdated, input.kind.noun)} changed since sent there ${notUpdated === 1 ? 'is' : 'are'} not updated (--no-updates).\n`,
    )
  }
}

/** SKUs to create that look like ones created there under the barcode they had (barcode-swaps.ts). */
function sayBarcodeSwaps(
  out: Output,
  { input, journal, dryRun }: JudgementContext,
  { plans }: PushJudgement,
): void {
  const swaps = barcodeSwaps(input, journal, plans)
  if (swaps.length === 0) return
  const n = swaps.length
  listOnStderr(
    out,
    `note: ${counted(n, input.kind.noun)} to create ${n === 1 ? 'has' : 'have'} the name of one created there under a barcode not in this file. If ${n === 1 ? 'its barcode was' : 'their barcodes were'} corrected, this push ${dryRun ? 'would create' : 'creates'} ${n === 1 ? 'a second SKU' : 'second SKUs'}: push matches SKUs by barcode (the app corrects a barcode there as an update).`,
    swaps.map(({ index, name, was }) => {
      const place = input.rowOf(index) === undefined ? '' : `${input.placeOf(index)}: `
      return `[${index}] ${input.labelOf(index)}: ${place}“${name}” was created there as ${was}`
    }),
    '(the first are listed)',
  )
}

/** One line an item held back: where it is, how it is named, and why. */
function heldLines(
  input: PushInput,
  holds: ReadonlyMap<number, Pick<Hold, 'message'> & Pick<PushHold, 'more'>>,
): string[] {
  return [...holds]
    .sort(([a], [b]) => a - b)
    .map(([index, hold]) => {
      const place = input.rowOf(index) === undefined ? '' : `${input.placeOf(index)}: `
      const reasons = [hold, ...(hold.more ?? [])].map(({ message }) => message).join('; ')
      return `[${index}] ${input.labelOf(index)}: ${place}${reasons}`
    })
}
