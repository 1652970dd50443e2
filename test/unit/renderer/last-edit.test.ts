import { describe, expect, it } from 'vitest'
import { lastEdit, lastEditWords } from '#renderer/features/team/last-edit.ts'
import { formatTime } from '#renderer/words/format.ts'

// The list's Last edit column (issue #41): a version that came through the team workspace says who
// wrote it and when by their clock; once edited here, it is this desk's edit again.

const team = { rev: '2-b', sharedAt: 5_000, editedBy: 'ben', editedAt: 4_200, conflicts: 0 }

describe('a draft’s last edit in the list', () => {
  it('is the version’s author and time when the draft is the workspace’s version', () => {
    expect(lastEdit({ updatedAt: 5_000, team })).toEqual({ at: 4_200, by: 'ben' })
  })

  it('is this desk’s edit, unnamed, once edited here since, or with no workspace', () => {
    expect(lastEdit({ updatedAt: 6_000, team })).toEqual({ at: 6_000 })
    expect(lastEdit({ updatedAt: 6_000 })).toEqual({ at: 6_000 })
  })

  it('says in its tooltip who wrote the version, when another desk did', () => {
    expect(lastEditWords({ at: 4_200, by: 'ben' })).toBe(`Edited by ben, ${formatTime(4_200)}`)
    expect(lastEditWords({ at: 6_000 })).toBe(formatTime(6_000))
  })
})
