import { describe, expect, it } from 'vitest'
import type { UndecidedDraft } from '#renderer/db/sync-reconcile.ts'
import { actionWords, doubtWords, listDoubt, resendRisk } from '#renderer/features/sync/reconcile-words.ts'
import { idsOutcome, replacedWords, withoutIdsWords } from '#renderer/words/platform-ids.ts'

// What the reconcile dialog says of a list of the platform's barcodes before anyone sends again on
// its word: the tryout's list had lost the drafts' leading zeros, matched none, and still offered
// to send all twelve again.

const draft = (barcode: string, state: 'unknown' | 'failed'): UndecidedDraft => ({
  id: barcode,
  barcode,
  productName: `Frame ${barcode}`,
  state,
  run: { id: 'run', createdAt: 0, profileName: 'Sandbox' },
  position: 0,
  message: '',
})

const undecided = [
  ...Array.from({ length: 6 }, (_, i) => draft(`00400000000${i}`, 'failed')),
  ...Array.from({ length: 6 }, (_, i) => draft(`00400000001${i}`, 'unknown')),
]

describe('the reconcile dialog’s doubts about a list', () => {
  it('finds the drafts a spreadsheet rewrote (leading zeros dropped) and says so with an example', () => {
    // The platform has the six unknown ones; the list lost their leading zeros.
    const plan = {
      listed: [],
      rest: undecided,
      unmatched: undecided.slice(6).map((one) => one.barcode.replace(/^0+/, '')),
    }
    const doubt = listDoubt(plan)
    expect(doubt.nearMatches).toHaveLength(6)
    expect(doubt.nearMatches[0]).toEqual({ listed: '4000000010', draft: '004000000010' })
    expect(doubtWords(doubt, plan)).toBe(
      '6 of the drafts not on the list are on it written differently: the list has 4000000010 where the draft has 004000000010. A spreadsheet most likely dropped the leading zeros. Format the barcode column as text, copy the barcodes from the platform again, and import that list.',
    )
  })

  it('a list that matches none while its own barcodes match nothing is doubted in general words', () => {
    const plan = { listed: [], rest: undecided, unmatched: ['7000000000001', '7000000000002'] }
    const doubt = listDoubt(plan)
    expect(doubt).toEqual({ nearMatches: [], fewMatch: true })
    expect(doubtWords(doubt, plan)).toMatch(
      /^None of the list’s barcodes matches an undecided draft, and 2 match none\. .*leading zeros .*8\.90123E\+12/,
    )
  })

  it('a list that matches as many as it leaves out, or has nothing else on it, is not doubted', () => {
    // The tryout's sound list: six of twelve matched, six barcodes already synced besides.
    const half = {
      listed: undecided.slice(6),
      rest: undecided.slice(0, 6),
      unmatched: ['1', '2', '3', '4', '5', '6'],
    }
    expect(doubtWords(listDoubt(half), half)).toBe('')
    // The platform lacks them all, and the list holds nothing else: nothing to doubt.
    const none = { listed: [], rest: undecided, unmatched: [] }
    expect(doubtWords(listDoubt(none), none)).toBe('')
    // A trailing ".0" (a number column) is a rewrite too; an unrelated barcode is not.
    const numbers = {
      listed: [],
      rest: [draft('8901000000006', 'unknown')],
      unmatched: ['8901000000006.0', '12'],
    }
    expect(listDoubt(numbers).nearMatches).toEqual([{ listed: '8901000000006.0', draft: '8901000000006' }])
  })

  it('sending the rest again counts its risk: how many may be there already', () => {
    expect(resendRisk(undecided, 'Sandbox')).toBe(
      'Of these 12, 6 had no answer (outcome unknown) and 6 failed with a server error: the service may have created any of them. Sent to Sandbox once more, each that is there after all (a list that is incomplete or written differently) would be created a second time: up to 12 duplicates.',
    )
    expect(resendRisk(undecided.slice(6), 'Sandbox')).toMatch(
      /^All 6 had no answer \(outcome unknown\): the service may have created any of them\. .* up to 6 duplicates\.$/,
    )
    expect(resendRisk(undecided.slice(0, 1), 'Production')).toBe(
      'It failed with a server error: the service may have created it. Sent to Production once more, it would be created a second time if it is there after all (a list that is incomplete or written differently): a duplicate.',
    )
  })
})

describe('what the Sync page says of the platform’s ids', () => {
  it('says why SKUs without an id cannot be updated, and how to give them one', () => {
    expect(withoutIdsWords(12, 'Production')).toBe(
      '12 SKUs created on Production have no platform id: they cannot be updated until you import a list from the platform with their ids.',
    )
    expect(withoutIdsWords(1, 'Production')).toBe(
      '1 SKU created on Production has no platform id: it cannot be updated until you import a list from the platform with its id.',
    )
  })

  it('names the drafts whose kept id the list replaced, a few, and counts the rest', () => {
    const replaced = Array.from({ length: 7 }, (_, i) => ({
      barcode: `b${i}`,
      was: `old-${i}`,
      now: `p-${i}`,
    }))
    expect(replacedWords(replaced)).toBe(
      'b0 (kept old-0, the list has p-0), b1 (kept old-1, the list has p-1), b2 (kept old-2, the list has p-2), ' +
        'b3 (kept old-3, the list has p-3), b4 (kept old-4, the list has p-4) and 2 more',
    )
    expect(idsOutcome({ ids: 0, replaced: [] }, 'Sandbox')).toBe('')
    expect(idsOutcome({ ids: 1, replaced: [] }, 'Sandbox')).toBe(
      '1 SKU on Sandbox got its platform id from the list: it can be updated.',
    )
  })

  it('words the confirming button from its actions', () => {
    expect(actionWords(['mark 6 as created'])).toBe('Mark 6 as created')
    expect(actionWords(['mark 6 as created', 'send 6 again'])).toBe('Mark 6 as created and send 6 again')
    expect(actionWords(['mark 6 as created', 'record 3 platform ids', 'send 2 again'])).toBe(
      'Mark 6 as created, record 3 platform ids and send 2 again',
    )
  })
})
