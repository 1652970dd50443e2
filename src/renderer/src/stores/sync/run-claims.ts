import { messageOf } from '#shared/error-message.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { CLAIM_TTL_MS, type ClaimHeld } from '#shared/team/claims.ts'
import { EXCHANGE_BATCH } from '#shared/team/draft-exchange.ts'
import { teamWorkspaceInMain } from '../../adapters/team-workspace.ts'
import { syncRuns } from '../../db/index.ts'
import type { SyncRunRecord } from '../../db/sync-records.ts'
import { SHARED_KIND } from '../../db/team-exchange.ts'
import { heldByOthersLines, logCount } from '../../words/sync-log.ts'

/** How often a run renews its claims: well within their expiry, so one renewal missed loses none. */
const RENEW_MS = CLAIM_TTL_MS / 4

/** A run's claims while it sends, renewed on their own until released. */
export interface RunClaimsHeld {
  release(): Promise<void>
}

const NO_CLAIMS: RunClaimsHeld = { release: async () => {} }

/**
 * Claims a run's queued drafts on its destination before it sends them (issue #42), when this desk
 * is in a team workspace and the destination is shared: every one but the built-in Sandbox, which
 * is each desk's own. The drafts another desk's run holds leave the run, said in the log desk by
 * desk. Answers the claims, renewed until released, or why the run may not send: the workspace's
 * server out of reach (nothing is sent then, and the run stays open, to resume).
 */
export async function claimRun(
  run: SyncRunRecord,
  addLog: (text: string) => void,
): Promise<{ ok: true; claims: RunClaimsHeld } | { ok: false; message: string }> {
  if (run.destination === EMBEDDED_SANDBOX_DESTINATION) return { ok: true, claims: NO_CLAIMS }
  if ((await teamWorkspaceInMain.status()).state !== 'joined') return { ok: true, claims: NO_CLAIMS }
  const keys = await syncRuns.queuedKeys(run.id)
  const held: ClaimHeld[] = []
  for (let at = 0; at < keys.length; at += EXCHANGE_BATCH) {
    const drafts = keys.slice(at, at + EXCHANGE_BATCH).map((id) => ({ kind: SHARED_KIND[run.kind], id }))
    const answer = await teamWorkspaceInMain.claim({ destination: run.destination, run: run.id, drafts })
    if (!answer.ok) {
      await teamWorkspaceInMain.releaseClaims(run.id).catch(() => {})
      return {
        ok: false,
        message: `Nothing was sent to ${run.profileName}: from a team workspace, the drafts are claimed on its server first, so that no two desks send them. ${answer.message}`,
      }
    }
    held.push(...answer.held)
  }
  if (held.length) {
    await syncRuns.leaveOut(
      run.id,
      held.map((claim) => claim.id),
    )
    for (const line of heldByOthersLines(run, held)) addLog(line)
  }
  const timer = setInterval(() => void renew(run, addLog), RENEW_MS)
  return {
    ok: true,
    claims: {
      async release() {
        clearInterval(timer)
        await teamWorkspaceInMain.releaseClaims(run.id)
      },
    },
  }
}

/** Renews a run's claims; what was lost or could not be renewed is said in the log. */
async function renew(run: SyncRunRecord, addLog: (text: string) => void) {
  try {
    const lost = await teamWorkspaceInMain.renewClaims(run.id)
    if (lost.length)
      addLog(
        `${logCount(run.kind, lost.length)} of this run were claimed by another desk meanwhile (this run's claim had run out).`,
      )
  } catch (error) {
    addLog(
      `The run's claims could not be renewed; they run out in two minutes unless renewed: ${messageOf(error)}`,
    )
  }
}
