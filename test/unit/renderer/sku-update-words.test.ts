import { describe, expect, it } from 'vitest'
import type { DestinationStanding } from '#shared/sync/standing.ts'
import {
  createdWords,
  keptWords,
  noIdWords,
  readyWords,
  updateButton,
  updateNote,
} from '#renderer/words/sku-updates.ts'

// What the editor's banner says of a SKU created on a destination (issue #34): it used to say the
// draft would never be sent there again ("the service only creates"), whatever its standing.

const created: DestinationStanding = {
  state: 'synced',
  run: 'run-1',
  position: 0,
  at: 1,
  remoteId: '65f0c0ffee0000000000abcd',
  sent: 'fingerprint',
}
const update = { run: 'run-2', position: 0, at: 2, sent: 'edited' }

describe('the banner of a SKU created on Production', () => {
  it('says unchanged, changed (Update sends it), or changed without an id (and where to get it)', () => {
    expect(createdWords(created, 'Production', false).title).toBe('Created on Production; unchanged since.')
    const changed = createdWords(created, 'Production', true)
    expect(changed.title).toBe('Changed since it was created on Production: Update sends the changed fields.')
    expect(changed.toSync).toBe(true)
    const { remoteId: _id, ...withoutId } = created
    expect(createdWords(withoutId, 'Production', true).title).toBe(
      "Changed since it was created on Production, but the platform's id of it is unknown: import a list from the platform with its ids (Sync › Check the platform).",
    )
  })

  it('says an update found it gone before anything else, and that a queued update holds it', () => {
    const gone = createdWords(
      { ...created, update: { ...update, state: 'rejected', gone: true } },
      'Production',
      false,
    )
    expect(gone.title).toBe('Not on the platform any more: Production has no SKU with its id.')
    expect(gone.tone).toBe('error')
    expect(
      createdWords({ ...created, update: { ...update, state: 'sending' } }, 'Production', false).title,
    ).toBe('Being updated on Production.')
  })

  it('says a refused update left it as it was, and an unknown one is sent again by Update', () => {
    expect(
      createdWords({ ...created, update: { ...update, state: 'rejected' } }, 'Production', false).title,
    ).toBe('Production refused the last update: it stands there as it was.')
    expect(
      createdWords({ ...created, update: { ...update, state: 'unknown' } }, 'Production', true).body,
    ).toContain('Whether the last update reached it is not known: Update sends it again')
  })
})

describe('the Sync page’s words for updates', () => {
  it('count the button and the SKUs without an id, and name the fields that stay', () => {
    expect(updateButton(3, 'Production')).toBe('Update 3 changed on Production')
    expect(updateButton(0, 'Production')).toBe('Nothing changed to update on Production')
    expect(noIdWords(1)).toBe("1 changed cannot be updated: the platform's id of it is unknown.")
    expect(keptWords(['meta.notes'])).toBe('Removed in the draft, stays on the platform: meta.notes')
  })

  it('say how many updates send the whole SKU, where what stands there is not known field by field', () => {
    expect(readyWords(3, 'Production')).toBe(
      '3 SKUs created on Production changed since: Update sends their changed fields, one SKU a request.',
    )
    expect(readyWords(3, 'Production', 1)).toMatch(
      /^3 SKUs created on Production changed since: Update sends their changed fields, one SKU a request; 1 of them whole: what stands there is not known field by field \(an earlier update’s outcome was not known/,
    )
    expect(readyWords(1, 'Production', 1)).toMatch(
      /^1 SKU created on Production changed since: Update sends it whole, one SKU a request: what stands there/,
    )
    expect(updateNote(0)).toBe(
      'One SKU a request, with only the fields that changed; a field removed in the draft stays on the platform.',
    )
    expect(updateNote(2)).toBe(
      'One SKU a request, with the fields that changed (2 whole); a field removed in the draft stays on the platform.',
    )
  })
})
