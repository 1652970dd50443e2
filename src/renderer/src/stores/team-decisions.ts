import { messageOf } from '#shared/error-message.ts'
import { EXCHANGE_BATCH } from '#shared/team/draft-exchange.ts'
import type { DecidedRecord } from '#shared/team/send-records.ts'
import type { SentDecision } from '#shared/team/shared-documents.ts'
import { systemClock } from '#shared/sync/system-clock.ts'
import { teamWorkspaceInMain } from '../adapters/team-workspace.ts'
import { chunks } from '../db/chunks.ts'
import { db, syncRuns } from '../db/index.ts'
import { decidedRecords } from '../db/team-send-records.ts'

/** Drafts of one run a person just decided about here: marked created, or to be sent again. */
export interface RunDecision {
  runId: string
  decision: SentDecision
  keys: readonly string[]
}

/**
 * Tells the team workspace of decisions made on this desk about drafts whose outcome was not
 * known (issue #42), for the runs sent from it (another desk's, or this desk's while joined), as
 * the drafts' send records: every desk then shows them decided, and by whom, and a draft to be sent
 * again is no longer kept out of the next run's claims. Answers what went wrong, in words, if the
 * workspace could not be told (the decisions stand here).
 */
export async function shareDecisions(decisions: readonly RunDecision[]): Promise<string | undefined> {
  try {
    let name: string | undefined
    for (const { runId, decision, keys } of decisions) {
      if (keys.length === 0 || (await syncRuns.get(runId))?.sentBy === undefined) continue
      if (name === undefined) {
        const status = await teamWorkspaceInMain.status()
        if (status.state !== 'joined') throw new Error('this desk is not in the team workspace now')
        name = status.name
      }
      await writeDecisions(await decidedRecords(db, runId, decision, name, systemClock.now(), keys))
    }
    return undefined
  } catch (failure) {
    return `The other desks of the team do not know of this decision: ${messageOf(failure)}`
  }
}

/** Writes decisions' records in the workspace, a bridge's batch at a time (a stopped run may hold thousands). */
export async function writeDecisions(records: readonly DecidedRecord[]): Promise<void> {
  for (const batch of chunks(records, EXCHANGE_BATCH)) await teamWorkspaceInMain.decideSends(batch)
}
