import type { Outcome } from '../service/outcome.ts'
import { backToQueue, rejectionMessage, settled } from './item-updates.ts'
import type { DraftKind } from './kinds.ts'
import type { ItemUpdate, OutboxItem, RunAction } from './ports.ts'
import { ACCEPTED_LINE_END } from './run-log.ts'
import type { PauseReason } from './run.ts'
import { halves, splitRejected } from './split.ts'

/**
 * What one request's outcome leads to, per the outcome table of the architecture guide: a pure
 * function of the batch, the outcome and two facts of the run, decided before anything is
 * written (the engine writes, holds, pauses or stops as it says). Tested as a table.
 */
export interface Decision {
  /**
   * The request's outcome and its items' new states, still to be written. Absent for a batch the
   * service would not take (busy, unreachable): its attempt wrote it back to `queued` already.
   */
  write?: { action: string; updates: ItemUpdate[] }
  /** Batches to send again (halves, or the whole batch after a pause). */
  hold: OutboxItem[][]
  log: string
  pause?: PauseReason
  /** What the pause says, when not the outcome's own message (the engine's "keeps failing" pause). */
  pauseMessage?: string
  /** The run ends after this: the address or the API version is wrong. */
  stop?: boolean
  /** What the stop says, when not the outcome's own message. */
  stopMessage?: string
  /** The run ends paused: offline, and no way to learn when the network is back. */
  end?: boolean
}

export interface DecisionContext {
  kind: DraftKind
  /** What the run does: creations, or updates of what was created. */
  action: RunAction
  /** The run was paused, cancelled or stopped while this request was out. */
  haltedMeanwhile: boolean
  /** The run can wait for the network to come back (the app can; the CLI cannot). */
  canWaitForNetwork: boolean
}

export function decideOutcome(items: OutboxItem[], outcome: Outcome, context: DecisionContext): Decision {
  const { kind } = context
  const name = kind.batchName(items)
  switch (outcome.kind) {
    case 'created':
      return {
        write: {
          action: context.action === 'update' ? 'updated' : 'synced',
          updates:
            context.action === 'update'
              ? items.map((item) => ({ key: item.key, state: 'synced' }))
              : kind.createdUpdates(items, outcome),
        },
        hold: [],
        log: `${name}${ACCEPTED_LINE_END}`,
      }
    case 'not-found': {
      const message = outcome.message
      return {
        write: {
          action: 'not on the platform',
          updates: items.map((item) => ({ key: item.key, state: 'rejected', message, gone: true })),
        },
        hold: [],
        log: `${name}: not on the platform any more: ${message}`,
      }
    }
    case 'rejected':
    case 'too-large': {
      if (items.length === 1) {
        const message = rejectionMessage(outcome)
        return {
          write: { action: 'rejected', updates: settled(items, 'rejected', message) },
          hold: [],
          log: `${name}: refused: ${message}`,
        }
      }
      const parts = outcome.kind === 'rejected' ? splitRejected(items, outcome.problems) : halves(items)
      const sizes = parts.map((part) => part.length).join(' + ')
      const why = outcome.kind === 'rejected' ? 'refused' : 'too large for the service'
      return {
        write: { action: `split into ${sizes}`, updates: backToQueue(items) },
        hold: parts,
        log: `${name}: ${why}; sending it again as ${sizes} to find the ${outcome.kind === 'rejected' ? `${kind.noun}s it refuses` : 'size it takes'}.`,
      }
    }
    case 'retry-later':
    case 'unreachable': {
      // Provably not processed, and written back to `queued` by its attempt: sent again first
      // when the run goes on.
      const hold = [items]
      if (context.haltedMeanwhile) return { hold, log: `${name}: not sent; it waits for the run to go on.` }
      const log = `${name}: ${outcome.message}`
      if (outcome.kind === 'retry-later') return { hold, log, pause: 'busy' }
      return context.canWaitForNetwork
        ? { hold, log, pause: 'offline' }
        : { hold, log, pause: 'offline', end: true }
    }
    case 'needs-token':
      return {
        write: { action: 'paused: token needed', updates: backToQueue(items) },
        hold: [items],
        log: `${name}: ${outcome.message}`,
        pause: 'needs-token',
      }
    case 'wrong-address':
      return {
        write: { action: 'stopped: wrong address', updates: settled(items, 'failed', outcome.message) },
        hold: [],
        log: `${name}: ${outcome.message} Nothing more is sent.`,
        stop: true,
      }
    case 'failed':
      return {
        write: { action: 'failed', updates: settled(items, 'failed', outcome.message) },
        hold: [],
        log: `${name}: ${outcome.message}`,
      }
    case 'unknown':
      return {
        write: { action: 'unknown', updates: settled(items, 'unknown', outcome.message) },
        hold: [],
        log: `${name}: ${outcome.message}`,
      }
  }
}
