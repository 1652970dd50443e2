import { writeFile } from 'node:fs/promises'
import { plural } from '#shared/plural.ts'
import { describeDroppedField, droppedFields, type DroppedField } from '#shared/sync/dropped-fields.ts'
import type { RunStatus, RunSummary } from '#shared/sync/run.ts'
import type { Hold } from '#shared/sync/send-gates.ts'
import type { JournalOutbox } from './journal-outbox.ts'
import type { PushInput } from './push-input.ts'

/** What `push` says at the end: the text summary, the `--json` object and the `--report` file. */

export interface ReportEntry {
  index: number
  /** The SKU's barcode, or the app's name. */
  barcode: string
  state: string
  message?: string
}

export interface PushJson {
  total: number
  synced: number
  rejected: number
  failed: number
  unknown: number
  /** Not sent because they do not meet the contract. */
  invalid: number
  /** Not sent because push's gates held them back (empty, no name or barcode, a required field, a barcode). */
  held: number
  /** Not sent because the run ended early (cancelled, paused, stopped); a re-run sends them. */
  queued?: number
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
}

/** The fields the service did not return as sent, for a synced app (computed once, for --json and the text). */
export function appDroppedFields(input: PushInput, outbox: JournalOutbox): DroppedField[] {
  const detail = outbox.detail(0)
  if (!input.kind.keepsAnswer || detail?.state !== 'synced' || detail.response === undefined) return []
  return droppedFields(input.items.at(0)?.payload, detail.response)
}

export function reportEntries(
  input: PushInput,
  outbox: JournalOutbox,
  held: ReadonlyMap<number, Hold>,
): ReportEntry[] {
  const entries: ReportEntry[] = []
  const invalid = new Map(input.invalid.map((item) => [item.index, item.message]))
  for (let index = 0; index < input.items.total; index++) {
    const barcode = input.labelOf(index)
    const problem = invalid.get(index)
    if (problem !== undefined) {
      entries.push({ index, barcode, state: 'invalid', message: problem })
      continue
    }
    const hold = held.get(index)
    if (hold !== undefined) {
      entries.push({ index, barcode, state: 'held', message: hold.message })
      continue
    }
    const detail = outbox.detail(index)
    const entry: ReportEntry = { index, barcode, state: detail?.state ?? 'queued' }
    if (detail?.message) entry.message = detail.message
    entries.push(entry)
  }
  return entries
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

export function pushJson(
  input: PushInput,
  summary: RunSummary,
  finalStatus: RunStatus,
  outbox: JournalOutbox,
  dropped: readonly DroppedField[],
  gates: { held: number; platformList?: PlatformListJson },
): PushJson {
  const { counts } = summary
  const json: PushJson = {
    total: input.items.total,
    synced: counts.synced,
    rejected: counts.rejected,
    failed: counts.failed,
    unknown: counts.unknown,
    invalid: input.invalid.length,
    held: gates.held,
    ...statusWords(finalStatus),
  }
  if (gates.platformList) json.platformList = gates.platformList
  const notSent = counts.queued + counts.sending
  if (notSent > 0) json.queued = notSent
  if (input.kind.keepsAnswer) {
    const detail = outbox.detail(0)
    if (detail?.state === 'synced') {
      json.app = {
        _id: detail.remoteId ?? null,
        droppedFields: dropped.map(({ path, change }) => ({ path, change })),
      }
    }
  }
  return json
}

const LISTED = 20

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
    `${json.synced} synced`,
    `${json.rejected} rejected`,
    `${json.failed} failed`,
    `${json.unknown} unknown`,
  ]
  if (json.invalid > 0) parts.push(`${json.invalid} not valid (not sent)`)
  if (json.held > 0) parts.push(`${json.held} held back (not sent)`)
  if (json.queued) parts.push(`${json.queued} not sent yet`)
  lines.push(`${plural(json.total, noun)}: ${parts.join(', ')}.`)
  for (const state of ['invalid', 'held', 'rejected', 'failed', 'unknown']) {
    const found = entries.filter((entry) => entry.state === state)
    for (const entry of found.slice(0, LISTED)) {
      lines.push(`  ${state}: [${entry.index}] ${entry.barcode}: ${entry.message ?? ''}`.trimEnd())
    }
    if (found.length > LISTED)
      lines.push(`  … and ${found.length - LISTED} more ${state} (--report lists them all)`)
  }
  if (json.unknown > 0) {
    lines.push(
      `Unknown: the service may or may not have created these. Check them on the platform before sending them again.`,
    )
  }
  if (json.unknown + json.failed > 0 && input.kind.reconciled) {
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
    'Run the same command again to resume: what was synced or may have been sent is not sent again.'
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
