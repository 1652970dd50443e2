import { beforeEach, describe, expect, it } from 'vitest'
import type { ProfilesState } from '#shared/ipc.ts'

// Main's answers, one per request, in the order they are asked.
let answers: Array<Promise<ProfilesState>> = []
let asked = 0
Object.assign(globalThis, {
  window: {
    api: {
      listProfiles: () => {
        asked++
        return answers.shift() ?? Promise.reject(new Error('No answer left'))
      },
    },
  },
})

const { listProfilesAhead, profilesInMain } = await import('#renderer/adapters/profiles.ts')

const state = (activeId: string): ProfilesState => ({ profiles: [], activeId }) as unknown as ProfilesState

beforeEach(() => {
  answers = []
  asked = 0
})

describe('the profiles asked for as the window opens (issue #37)', () => {
  it('are what the first list takes, asked of main once; a later list asks again', async () => {
    answers = [Promise.resolve(state('asked-ahead')), Promise.resolve(state('asked-later'))]
    listProfilesAhead()
    expect(asked).toBe(1)
    expect((await profilesInMain.list()).activeId).toBe('asked-ahead')
    expect(asked).toBe(1)
    expect((await profilesInMain.list()).activeId).toBe('asked-later')
    expect(asked).toBe(2)
  })

  it('hand their failure to the first list, and leave no unhandled rejection when nobody lists', async () => {
    answers = [Promise.reject(new Error('main is gone'))]
    listProfilesAhead()
    await expect(profilesInMain.list()).rejects.toThrow('main is gone')
    // A window opened on another page never lists: its failed answer is no error of its own
    // (vitest fails the run on an unhandled rejection).
    answers = [Promise.reject(new Error('not taken'))]
    listProfilesAhead()
  })
})
