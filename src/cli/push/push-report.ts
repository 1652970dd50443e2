import { writeFile } from 'node:fs/promises'
import { thousands } from '#shared/sheet/places.ts'
import { counted } from '#shared/counted.ts'
import { describeDroppedField, droppedFields, type DroppedField } from '#shared/sync/dropped-fields.ts'
import type { ItemState } from '#shared/sync/ports.ts'
import type { RunStatus } from '#shared/sync/run.ts'
import type { Journal, JournalAction, RunOutbox } from './journal-outbox.ts'
import type { PushJudgement } from './push-gates.ts'
import type { PushInput } from './push-input.ts'

/** What `push` says at the end: the text summary, the `--json` object and the `--report` file. */

export interface ReportEntry {
  index: number
  /** The SKU's barcode ('' when it has none: never its name), or the app's name. */
  barcode: string
  /**
   * Where the item stands: synced (on the platform as the input has it: created or updated, now or
   * before), rejected, failed, unknown, queued (not sent yet), invalid, held, or not-updated
   * (changed since it was sent there, left as it is by --no-updates).
   */
  state: ReportState
  /** What push did or tried last for it: create, update, or none (unchanged since sent there, or not sent). */
  action: 'create' | 'update' | 'none'
  message?: string
  /** A refused update: the SKU is not on the platform any more (404 with the service's message). */
  notFound?: true
  /** Marked created by the platform's list (`--platform-has`): synced, with nothing sent for it. */
  marked?: true
}

export type ReportState = Exclude<ItemState, 'sending'> | 'invalid' | 'held' | 'not-updated'

/** Items of one action by where they stand. */
export interface ActionCounts {
  synced: number
  rejected: number
  failed: number
  unknown: number
  /** Not sent because the push ended early; a re-run sends them. */
  queued?: number
}

export interface PushJson {
  total: number
  /** On the platform as FILE has them: created or updated (now or before), or unchanged since sent there. */
  synced: number
  rejected: number
  failed: number
  unknown: number
  /** Not sent because they do not meet the contract. */
  invalid: number
  /**
   * Not sent because push held them back: its gates (empty, no name or barcode, a required field, a
   * barcode), or an update it cannot send (the platform's id unknown; an app, which has no update).
   */
  held: number
  /** Not sent because the run ended early (cancelled, paused, stopped); a re-run sends them. */
  queued?: number
  /** Items by their creation's state: created now, or whose creation an earlier push left unknown, failed or refused. */
  created: ActionCounts
  /** Items by their update's state: updated now (only what changed was sent), or refused earlier and unchanged since. */
  updated: ActionCounts & { notFound: number }
  /** Created there earlier and unchanged since: nothing sent (counted in synced). */
  unchanged: number
  /** Of `created.synced`, those the platform's list marked created: nothing was sent for them. */
  marked: number
  /** Changed since they were sent there, left as they are by --no-updates (not in synced; exit 0 allows them). */
  notUpdated: number
  status: 'finished' | 'cancelled' | 'paused' | 'stopped'
  reason?: string
  message?: string
  app?: { _id: string | null; droppedFields: Pick<DroppedField, 'path' | 'change'>[] }
  /** With --platform-has: what the list decided before anything was sent. */
  platformList?: PlatformListJson
}

export interface PlatformListJson {
  file: string
  /** Unknown or failed SKUs on the list, now synced. */
  markedCreated: number
  /** Unknown or failed SKUs not on the list, sent again in this run. */
  sentAgain: number
  /** Unknown or failed SKUs not on the list that the gates kept from going out again (still unknown or failed). */
  keptBack: number
  /** Barcodes on the list that matched no unknown or failed SKU. */
  unmatched: number
  /** The platform's ids the list gave for SKUs created there (new or changed ids). */
  idsSet: number
}

/** What the report is made from: the input, what push judged, the journal and the runs' outboxes. */
export interface PushOutcome {
  input: PushInput
  judgement: PushJudgement
  journal: Pick<Journal, 'record'>
  runs: Record<JournalAction, Pick<RunOutbox, 'stateOf'>>
  /** The message SKUs marked created by the platform's list carry. */
  markedMessage?: string
}

export const NOT_FOUND_WORDS = 'Not on the platform any more'
export const RESENT_WORDS =
  "Sent again, whole: an earlier push left this update's outcome unknown, and an update is idempotent (sent twice, it leaves the SKU as once)"

export function reportEntries({
  input,
  judgement,
  journal,
  runs,
  markedMessage,
}: PushOutcome): ReportEntry[] {
  const entries: ReportEntry[] = []
  const invalid = new Map(input.invalid.map((item) => [item.index, item.message]))
  for (let index = 0; index < input.items.total; index++) {
    const barcode = input.keyOf(index)
    const problem = invalid.get(index)
    if (problem !== undefined) {
      entries.push({ index, barcode, state: 'invalid', action: 'none', message: problem })
      continue
    }
    const key = input.keyOf(index)
    const plan = judgement.plans[index]
    const last = journal.record(key)?.last
    const entry: ReportEntry = { index, barcode, state: 'queued', action: 'none' }
    switch (plan) {
      case 'held':
        entry.state = 'held'
        entry.message = judgement.held.get(index)?.message ?? ''
        break
      case 'unchanged':
        entry.state = 'synced'
        break
      case 'marked':
        Object.assign(entry, { state: 'synced', action: 'create', marked: true })
        if (markedMessage !== undefined) entry.message = markedMessage
        break
      case 'not-updated':
        entry.state = 'not-updated'
        entry.message = 'Changed since it was sent there; not updated (--no-updates)'
        break
      case 'create':
      case 'update': {
        const state = runs[plan].stateOf(key) ?? 'queued'
        Object.assign(entry, { state: state === 'sending' ? 'queued' : state, action: plan })
        if (state !== 'synced' && state !== 'queued') describeAttempt(entry, last)
        else if (state === 'synced' && judgement.resent.has(index)) entry.message = RESENT_WORDS
        break
      }
      case 'standing':
        entry.state =
          last?.state === 'sending' || last === undefined ? 'unknown' : (last.state as ReportState)
        entry.action = last?.action ?? 'create'
        describeAttempt(entry, last)
        break
    }
    entries.push(entry)
  }
  return entries
}

function describeAttempt(entry: ReportEntry, last: { message?: string; gone?: true } | undefined): void {
  if (last?.gone) {
    entry.notFound = true
    entry.message = `${NOT_FOUND_WORDS}: ${last.message ?? ''}`.trimEnd()
  } else if (last?.message !== undefined) entry.message = last.message
}

export async function writeReport(path: string, entries: readonly ReportEntry[]): Promise<void> {
  const text =
    entries.length === 0 ? '[]\n' : `[\n${entries.map((entry) => JSON.stringify(entry)).join(',\n')}\n]\n`
  await writeFile(path, text)
}

function statusWords(status: RunStatus): Pick<PushJson, 'status' | 'reason' | 'message'> {
  switch (status.state) {
    case 'finished':
    case 'running':
      return { status: status.state === 'finished' && status.cancelled ? 'cancelled' : 'finished' }
    case 'paused':
      return { status: 'paused', reason: status.reason, message: status.message }
    case 'stopped':
      return { status: 'stopped', message: status.message }
  }
}

const noCounts = (): ActionCounts => ({ synced: 0, rejected: 0, failed: 0, unknown: 0 })

export function pushJson(
  input: PushInput,
  entries: readonly ReportEntry[],
  finalStatus: RunStatus,
  app: { id?: string; dropped: readonly DroppedField[] } | undefined,
  platformList?: PlatformListJson,
): PushJson {
  const created = noCounts()
  const updated = { ...noCounts(), notFound: 0 }
  let unchanged = 0
  let marked = 0
  let notUpdated = 0
  let invalid = 0
  let held = 0
  for (const entry of entries) {
    if (entry.state === 'invalid') invalid += 1
    else if (entry.state === 'held') held += 1
    else if (entry.state === 'not-updated') notUpdated += 1
    else if (entry.action === 'none') unchanged += 1
    else {
      if (entry.marked) marked += 1
      const counts = entry.action === 'create' ? created : updated
      if (entry.notFound) updated.notFound += 1
      else if (entry.state === 'queued') counts.queued = (counts.queued ?? 0) + 1
      else counts[entry.state] += 1
    }
  }
  const sum = (state: keyof ActionCounts) => (created[state] ?? 0) + (updated[state] ?? 0)
  const json: PushJson = {
    total: input.items.total,
    synced: sum('synced') + unchanged,
    rejected: sum('rejected') + updated.notFound,
    failed: sum('failed'),
    unknown: sum('unknown'),
    invalid,
    held,
    created,
    updated,
    unchanged,
    marked,
    notUpdated,
    ...statusWords(finalStatus),
  }
  const queued = sum('queued')
  if (queued > 0) json.queued = queued
  if (platformList) json.platformList = platformList
  if (app) {
    json.app = {
      _id: app.id ?? null,
      droppedFields: app.dropped.map(({ path, change }) => ({ path, change })),
    }
  }
  return json
}

/** The fields the service did not return as sent, for an app created there (computed once, for --json and the text). */
export function appDroppedFields(input: PushInput, journal: Pick<Journal, 'record'>): DroppedField[] {
  const record = journal.record(input.keyOf(0))
  if (!input.kind.keepsAnswer || record?.stands === undefined || record.response === undefined) return []
  return droppedFields(input.items.at(0)?.payload, record.response)
}

const LISTED = 20

/** The items not synced, the first few of each state (invalid, held, …), each by its label. */
function notSyncedLines(input: PushInput, entries: readonly ReportEntry[]): string[] {
  const lines: string[] = []
  for (const state of ['invalid', 'held', 'rejected', 'failed', 'unknown'] as const) {
    const found = entries.filter((entry) => entry.state === state)
    for (const entry of found.slice(0, LISTED)) {
      const what = entry.action === 'update' ? `${state} update` : state
      lines.push(
        `  ${what}: [${entry.index}] ${input.labelOf(entry.index)}: ${entry.message ?? ''}`.trimEnd(),
      )
    }
    if (found.length > LISTED)
      lines.push(`  … and ${thousands(found.length - LISTED)} more ${state} (--report lists them all)`)
  }
  return lines
}

/** The text summary on stdout: the counts, what was not synced and why, and for an app its id and lost fields. */
export function pushText(
  input: PushInput,
  json: PushJson,
  entries: readonly ReportEntry[],
  dropped: readonly DroppedField[],
): string {
  const noun = input.kind.noun
  const lines: string[] = []
  const parts = [
    `${thousands(json.synced)} synced`,
    `${thousands(json.rejected)} rejected`,
    `${thousands(json.failed)} failed`,
    `${thousands(json.unknown)} unknown`,
  ]
  if (json.invalid > 0) parts.push(`${thousands(json.invalid)} not valid (not sent)`)
  if (json.held > 0) parts.push(`${thousands(json.held)} held back (not sent)`)
  if (json.queued) parts.push(`${thousands(json.queued)} not sent yet`)
  if (json.notUpdated > 0) parts.push(`${thousands(json.notUpdated)} changed but not updated (--no-updates)`)
  lines.push(`${counted(json.total, noun)}: ${parts.join(', ')}.`)
  const { created, updated } = json
  const anyUpdate =
    updated.synced + updated.rejected + updated.notFound + updated.failed + updated.unknown > 0
  // A SKU the platform's list marked created is synced, but no request made it: said apart.
  const marked =
    json.marked > 0 ? ` (${thousands(json.marked)} of them marked by the platform's list, not sent)` : ''
  if (anyUpdate || json.unchanged > 0 || json.notUpdated > 0 || json.marked > 0) {
    lines.push(
      `Created ${thousands(created.synced)}${marked}, updated ${thousands(updated.synced)} (only the changed fields sent), unchanged since sent there ${thousands(json.unchanged)} (not sent again).`,
    )
  }
  lines.push(...notSyncedLines(input, entries))
  if (updated.notFound > 0) {
    lines.push(
      `${NOT_FOUND_WORDS}: the service found no SKU under the id kept for ${updated.notFound === 1 ? 'it' : 'them'} (deleted there, or not the platform's id). Push does not create ${updated.notFound === 1 ? 'it' : 'them'} again by itself; if one is on the platform under another id, give that id with --platform-has LIST (barcode and id columns).`,
    )
  }
  if (created.unknown > 0) {
    lines.push(
      `Unknown: the service may or may not have created these. Check them on the platform before sending them again.`,
    )
  }
  if (updated.unknown + updated.failed > 0) {
    lines.push(
      `An update whose outcome is unknown or failed is sent again by the next push, whole: an update is idempotent (sent twice, it leaves the SKU as once).`,
    )
  }
  if (created.unknown + created.failed > 0 && input.kind.reconciled) {
    lines.push(
      `To settle the unknown and failed: --unresolved FILE.csv lists them to look up on the platform, and --platform-has LIST (the barcodes found there) marks those created and sends the others again.`,
    )
  }
  if (json.app) {
    lines.push(`App id: ${json.app._id ?? '(the service did not return one)'}`)
    if (dropped.length === 0) lines.push('The service returned every field as sent.')
    else {
      lines.push(`Fields the service did not keep as sent (${dropped.length}):`)
      for (const field of dropped) lines.push(`  ${describeDroppedField(field)}`)
    }
  }
  const again =
    'Run the same command again to resume: what was created, or may have been, is not created again.'
  if (json.status === 'cancelled') lines.push(`Interrupted. ${again}`)
  if (json.status === 'stopped') lines.push(`Stopped: ${json.message ?? ''} Nothing more was sent.`)
  if (json.status === 'paused') {
    const why: Record<string, string> = {
      'needs-token': 'the service refused the token',
      offline: 'the service could not be reached',
      busy: 'the service stayed busy longer than the command waits',
      failing: 'several requests in a row may or may not have been processed: check the platform first',
      requested: 'paused',
    }
    lines.push(`Stopped early: ${why[json.reason ?? ''] ?? json.reason} (${json.message ?? ''}). ${again}`)
  }
  return lines.join('\n') + '\n'
}
