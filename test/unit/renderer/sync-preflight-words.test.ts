import { describe, expect, it } from 'vitest'
import { emptyPreflight } from '#renderer/db/sync-runs.ts'
import { START_COPY } from '#renderer/features/sync/preflight-words.ts'

// The Sync page's count tiles add up to every draft: the tryout's 20 drafts showed Ready 0,
// With errors 2, Synced 6 and Unknown 6, the six failed ones nowhere.

const preflight = emptyPreflight

const sum = (tiles: { value: number }[]) => tiles.reduce((total, tile) => total + tile.value, 0)

describe('the pre-flight’s tiles', () => {
  it('count the failed SKU drafts with the unknown ones, as the apps do', () => {
    const tiles = START_COPY.skus.tiles(preflight({ invalid: 2, synced: 6, unknown: 6, failed: 6 }), 0)
    expect(tiles.map((tile) => [tile.label, tile.value])).toEqual([
      ['Ready to send', 0],
      ['With errors: fix first', 2],
      ['Already synced here', 6],
      ['Unknown or failed: your decision', 12],
    ])
    expect(sum(tiles)).toBe(20)
  })

  it('name what the fix-first tile counts, and show drafts in an unfinished run, so every draft is counted once', () => {
    // 30 drafts: 10 ready of which 3 held back, 2 invalid, 4 refused, 5 synced, 1 unknown, 2 failed, 6 in a run.
    const found = preflight({ ready: 7, invalid: 2, rejected: 4, synced: 5, unknown: 1, failed: 2, inRun: 6 })
    const tiles = START_COPY.skus.tiles(found, 3)
    expect(tiles.map((tile) => tile.label)).toEqual([
      'Ready to send',
      'With errors, refused or held back: fix first',
      'Already synced here',
      'Unknown or failed: your decision',
      'In a run not finished',
    ])
    expect(sum(tiles)).toBe(30)
    expect(START_COPY.skus.tiles(preflight({ invalid: 1 }), 2)[1]!.label).toBe(
      'With errors or held back: fix first',
    )
  })
})
