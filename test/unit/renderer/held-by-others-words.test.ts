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
    // Each named by its label in this run (a tryout read "1 draft left out" and could not tell which).
    const labels = new Map([
      ['a', '8901000000001'],
      ['b', '8901000000002'],
      ['c', '8901000000003'],
    ])
    const lines = heldByOthersLines(
      run,
      [held('a', 'ana'), held('b', 'ana'), held('c', 'ben', true), held('d', '', true)],
      (id) => labels.get(id),
    )
    expect(lines[0]).toBe(
      '2 drafts left out (8901000000001, 8901000000002): ana’s desk is sending them to Production.',
    )
    expect(lines[1]).toMatch(
      /^1 draft left out \(8901000000003\): ben’s desk was sending it to Production and stopped \(its claim ran out .+\); whether Production created it is not known: decide in the history below\.$/,
    )
    expect(lines[2]).toBe('1 draft left out: a claim on Production that the app cannot read holds it.')
    expect(lines).toHaveLength(3)
  })
})
