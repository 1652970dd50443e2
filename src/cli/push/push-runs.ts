import { clientTransport, createServiceClient } from '#node/service/client.ts'
import type { SettingsNamed } from '#node/service/outcome-messages.ts'
import type { Timeouts } from '#shared/profile.ts'
import type { SkuUpdateArgument } from '#shared/service/operations.ts'
import { createSyncRun } from '#shared/sync/engine.ts'
import type { SyncTransport } from '#shared/sync/ports.ts'
import type { RunStatus, SyncRun } from '#shared/sync/run.ts'
import { ACCEPTED_LINE_END } from '#shared/sync/run-log.ts'
import { skuUpdatePlan } from '#shared/sync/sku-update.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import type { Output } from '../io.ts'
import type { Journal, JournalAction, RunItem, RunOutbox } from './journal-outbox.ts'
import type { PushJudgement } from './push-gates.ts'
import type { PushInput } from './push-input.ts'
import type { Credentials } from './push-credentials.ts'
import { progressPrinter } from './push-progress.ts'

/**
 * Sending: the push's creations, then its updates, each a run of the app's sync engine from the
 * journal's outbox (journal-outbox.ts), one after the other. A run that ends early (paused,
 * stopped, cancelled by Ctrl-C) ends the push: a re-run sends the rest from the journal. Kept apart
 * from the command so what is sent and how a run ends can be read without the options and report.
 */

export interface PushRunsContext {
  input: PushInput
  judgement: PushJudgement
  journal: Journal
  credentials: Credentials
  baseUrl: string
  /** Where the address and token came from, as the service's messages' advice names them. */
  settings: SettingsNamed
  timeouts: Timeouts
  batchSize: number
  concurrency: number
  /** Progress and the runs' log lines. */
  err: Output
  /** The caller's signal; without one, Ctrl-C. */
  signal?: AbortSignal
}

export interface PushRuns {
  /** Each action's outbox, for the report: where each of its items stands. */
  runs: Record<JournalAction, RunOutbox>
  /** How the last run ended (finished, when nothing was to be sent). */
  finalStatus: RunStatus
}

/** Sends the creations, then the updates; the journal is closed when they end, however they end. */
export async function sendPush(context: PushRunsContext): Promise<PushRuns> {
  const { journal } = context
  const transport = clientTransport(
    createServiceClient({
      baseUrl: context.baseUrl,
      tokenEncoding: context.credentials.tokenEncoding,
      timeouts: context.timeouts,
      getToken: context.credentials.getToken,
      settings: context.settings,
    }),
  )
  const runs = runOutboxes(context)
  /** The run going now, which Ctrl-C cancels; and whether it came, so no further run starts. */
  let current: SyncRun | undefined
  let interrupted = false
  let finalStatus: RunStatus = { state: 'finished', cancelled: false }
  const stopListening = onInterrupt(context.signal, () => {
    interrupted = true
    current?.cancel()
  })
  try {
    for (const action of ['create', 'update'] as const) {
      if (runs[action].size === 0) continue
      if (interrupted) {
        finalStatus = { state: 'finished', cancelled: true }
        break
      }
      finalStatus = await sendRun(context, action, runs[action].outbox, transport, (run) => {
        current = run
        if (interrupted) run.cancel()
      })
      if (finalStatus.state !== 'finished' || finalStatus.cancelled) break
    }
  } finally {
    stopListening()
    await journal.close()
  }
  return { runs: { create: runs.create.outbox, update: runs.update.outbox }, finalStatus }
}

/** One action's run, to its end; a pause has nobody to resume it here, so it ends the run. */
async function sendRun(
  context: PushRunsContext,
  action: JournalAction,
  outbox: RunOutbox,
  transport: SyncTransport,
  started: (run: SyncRun) => void,
): Promise<RunStatus> {
  const { input, err } = context
  const progress = progressPrinter(
    err,
    input.kind,
    systemClock.now,
    action === 'create' ? 'Progress' : 'Updates',
  )
  /** A pause has nobody to resume it here: the command ends, and a re-run resumes from the journal. */
  let pausedWith: RunStatus | undefined
  const run = createSyncRun(
    { outbox, transport, clock: systemClock },
    // `concurrency` is the most at once: the engine finds how many the service keeps up with.
    {
      runId: `${input.fingerprint.slice(0, 16)}-${action}`,
      kind: input.kind.kind,
      action,
      batchSize: context.batchSize,
      concurrency: context.concurrency,
      adaptive: true,
    },
    {
      onProgress: progress.counts,
      onLog: (line) => {
        if (!line.endsWith(ACCEPTED_LINE_END)) err.write(`${line}\n`)
      },
      onStatus: (status) => {
        if (status.state === 'paused' && status.reason !== 'requested') {
          pausedWith = status
          run.cancel()
        }
      },
    },
  )
  started(run)
  try {
    const summary = await run.start()
    return pausedWith ?? summary.status
  } finally {
    progress.done()
  }
}

/** Each action's outbox over the journal, with what its items send and what stands there once synced. */
function runOutboxes({
  input,
  judgement,
  journal,
}: PushRunsContext): Record<JournalAction, { outbox: RunOutbox; size: number }> {
  // What stands there once an item is synced, created or updated: the SKU as FILE has it.
  const stands = (item: RunItem) => ({
    payload: input.payloadOf(item.index),
    fingerprint: input.fingerprintOf(item.index),
  })
  const creations = runItems(input, judgement, 'create')
  const updates = runItems(input, judgement, 'update')
  const create = journal.outbox({
    action: 'create',
    items: creations,
    send: (item) => input.payloadOf(item.index),
    stands,
  })
  const update = journal.outbox({
    action: 'update',
    items: updates,
    send(item) {
      const current = input.payloadOf(item.index) as Record<string, unknown>
      // An update whose outcome nobody knows is sent whole: there is nothing sure to diff against.
      const base = judgement.resent.has(item.index) ? undefined : journal.standingPayload(item.key)
      const argument: SkuUpdateArgument = {
        skuId: journal.record(item.key)!.id!,
        fields: skuUpdatePlan(base, current).fields,
      }
      return argument
    },
    stands,
  })
  return {
    create: { outbox: create, size: creations.length },
    update: { outbox: update, size: updates.length },
  }
}

/** The items a run of the push sends, in input order. */
function runItems(input: PushInput, judgement: PushJudgement, action: JournalAction): RunItem[] {
  const items: RunItem[] = []
  judgement.plans.forEach((plan, index) => {
    if (plan === action) items.push({ key: input.keyOf(index), index, label: input.labelOf(index) })
  })
  return items
}

/** Ends when the caller's signal fires, or on Ctrl-C; a second Ctrl-C is left to Node (it ends the process). */
function onInterrupt(signal: AbortSignal | undefined, cancel: () => void): () => void {
  if (signal) {
    if (signal.aborted) cancel()
    signal.addEventListener('abort', cancel, { once: true })
    return () => signal.removeEventListener('abort', cancel)
  }
  const handler = () => {
    process.off('SIGINT', handler)
    cancel()
  }
  process.on('SIGINT', handler)
  return () => process.off('SIGINT', handler)
}
