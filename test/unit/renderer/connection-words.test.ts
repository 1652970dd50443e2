import { describe, expect, it } from 'vitest'
import { connectionHeadline, encodingAnswerWords } from '#renderer/features/settings/connection-words.ts'
import { connectionResult } from './connection-results.ts'

describe('what a connection test is called', () => {
  it('is green "Connected" only when the service took the empty batch; a 400 or 422 to it says the token was accepted', () => {
    expect(connectionHeadline(connectionResult({ ok: true, kind: 'created', status: 201 }))).toEqual({
      title: 'Connected',
      tone: 'ok',
    })
    for (const status of [400, 422])
      expect(connectionHeadline(connectionResult({ ok: true, kind: 'rejected', status }))).toEqual({
        title: 'Token accepted',
        tone: 'partial',
      })
    expect(connectionHeadline(connectionResult({ status: 401 }))).toEqual({
      title: 'Not connected',
      tone: 'failed',
    })
  })

  it('says of each encoding what the service did with it', () => {
    expect(encodingAnswerWords(connectionResult({ ok: true, kind: 'created', status: 201 }))).toBe(
      'accepted (HTTP 201)',
    )
    expect(encodingAnswerWords(connectionResult({ ok: true, kind: 'rejected', status: 400 }))).toBe(
      'token accepted, empty batch refused (HTTP 400)',
    )
    expect(encodingAnswerWords(connectionResult({ status: 401 }))).toBe('refused (HTTP 401)')
    expect(encodingAnswerWords(connectionResult({ kind: 'unreachable' }))).toBe('no answer about the token')
  })
})
