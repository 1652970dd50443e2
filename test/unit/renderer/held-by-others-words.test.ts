import { describe, expect, it } from 'vitest'
import type { SyncRunRecord } from '#renderer/db/sync-records.ts'
import { heldByOthersLines } from '#renderer/words/sync-log.ts'
import type { ClaimHeld } from '#shared/team/claims.ts'

const run = { kind: 'skus', profileName: 'Production' } as SyncRunRecord
const held = (id: string, owner: string, expired = false): ClaimHeld => ({
  kind: 'sku',
  id,
  position: 0,
  owner,
  run: `run-${owner}`,
  claimedAt: 0,
  expiresAt: Date.UTC(2026, 10, 29, 10, 42),
  expired,
})

describe('the log’s words for drafts other desks hold (issue #42)', () => {
  it('a line for each desk, counting its drafts; a desk that stopped mid-send is said to have', () => {
    const lines = heldByOthersLines(run, [
      held('a', 'ana'),
      held('b', 'ana'),
      held('c', 'ben', true),
      held('d', '', true),
    ])
    expect(lines[0]).toBe('2 drafts left out: ana’s desk is sending them to Production.')
    expect(lines[1]).toMatch(
      /^1 draft left out: ben’s desk was sending it to Production and stopped \(its claim ran out .+\); whether Production created it is not known: decide in the history below\.$/,
    )
    expect(lines[2]).toBe('1 draft left out: a claim on Production that the app cannot read holds it.')
    expect(lines).toHaveLength(3)
  })
})
