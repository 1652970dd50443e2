import { describe, expect, it } from 'vitest'
import { heldBackWords } from '#renderer/words/sync-log.ts'
import { HOLD_REASONS, type HoldReason } from '#shared/sync/send-gates.ts'

describe('the log’s words for drafts held back', () => {
  it('count each reason with its thousands separated, as the line before it does', () => {
    // A tryout's log: "23,947 drafts held back: 23947 missing a product name or a barcode".
    const counts = Object.fromEntries(HOLD_REASONS.map((reason) => [reason, 0])) as Record<HoldReason, number>
    counts.identity = 23_947
    counts.required = 31
    expect(heldBackWords(counts, 'Sandbox')).toBe(
      '23,947 missing a product name or a barcode, 31 missing a field Sandbox requires',
    )
  })
})
