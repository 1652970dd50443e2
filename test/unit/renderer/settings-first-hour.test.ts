import { describe, expect, it } from 'vitest'
import { encodingAnswer, encodingVerdict } from '#renderer/features/settings/encoding-test.ts'
import {
  fieldId,
  newProfile,
  profileProblems,
  shownProblems,
} from '#renderer/features/settings/profile-draft.ts'
import { connectionResult } from './connection-results.ts'

const accepted = connectionResult({ ok: true, kind: 'rejected', status: 422 })
const refused = connectionResult({ status: 401, message: 'The service refused the token.' })
const notSent = connectionResult({ message: 'No token is set for this profile.' })
const down = connectionResult({ kind: 'unreachable', message: 'Could not reach the service.' })

describe('encodingAnswer', () => {
  it('reads a test as accepted, refused, not sent or unclear', () => {
    expect(encodingAnswer(accepted)).toBe('accepted')
    expect(encodingAnswer(refused)).toBe('refused')
    expect(encodingAnswer(connectionResult({ status: 403 }))).toBe('refused')
    expect(encodingAnswer(notSent)).toBe('not-sent')
    expect(encodingAnswer(down)).toBe('unknown')
  })
})

describe('encodingVerdict', () => {
  it('names the one encoding accepted, and says to switch when the profile sends the other', () => {
    const verdict = encodingVerdict({ raw: refused, base64: accepted }, 'raw')
    expect(verdict.accepted).toEqual(['base64'])
    expect(verdict.summary).toBe('The service accepts the token base64-encoded and refuses it raw.')
    expect(verdict.advice).toContain('“Base64-encoded”')
    expect(encodingVerdict({ raw: refused, base64: accepted }, 'base64').advice).toBeUndefined()
    expect(encodingVerdict({ raw: accepted, base64: refused }, 'raw').summary).toBe(
      'The service accepts the token raw and refuses it base64-encoded.',
    )
  })

  it('says when either works, when neither does, and when it cannot tell', () => {
    expect(encodingVerdict({ raw: accepted, base64: accepted }, 'raw').summary).toMatch(/both ways/)
    expect(encodingVerdict({ raw: refused, base64: refused }, 'raw').summary).toMatch(
      /encoding is not the problem/,
    )
    expect(encodingVerdict({ raw: notSent, base64: notSent }, 'raw').summary).toBe(
      'Nothing was sent: No token is set for this profile.',
    )
    expect(encodingVerdict({ raw: down, base64: refused }, 'raw').summary).toBe(
      'Could not tell which encoding the service accepts: Could not reach the service.',
    )
    expect(encodingVerdict({ raw: down, base64: accepted }, 'raw').summary).toBe(
      'The service accepts the token base64-encoded.',
    )
  })
})

describe('shownProblems', () => {
  it('shows nothing on a new, untouched profile, though its address is not valid yet', () => {
    const profile = newProfile()
    const problems = profileProblems(profile)
    expect(problems.has('baseUrl')).toBe(true)
    expect(shownProblems(problems, new Set(), profile, profile).size).toBe(0)
  })

  it('shows a field once it was left or changed, and every field after a save was tried', () => {
    const original = newProfile()
    const draft = { ...original, name: '', timeouts: { ...original.timeouts, connectMs: 0 } }
    const problems = profileProblems(draft)
    expect([...shownProblems(problems, new Set(), draft, original).keys()].sort()).toEqual([
      'name',
      'timeouts.connectMs',
    ])
    expect(shownProblems(problems, new Set(['baseUrl']), draft, original).has('baseUrl')).toBe(true)
    expect(shownProblems(problems, 'all', draft, original)).toBe(problems)
  })

  it('knows the field of each path', () => {
    expect(fieldId('baseUrl')).toBe('profile-url')
    expect(fieldId('timeouts.totalMs')).toBe('profile-totalMs')
    expect(fieldId('requiredFields')).toBe('profile-name')
  })
})
