import { describe, expect, it } from 'vitest'
import type { ConnectionTest } from '#shared/ipc.ts'
import { connectionHeadline, encodingAnswerWords } from '#renderer/features/settings/connection-words.ts'

const test = (over: Partial<ConnectionTest>): ConnectionTest => ({
  ok: false,
  kind: 'needs-token',
  message: 'm',
  url: 'http://127.0.0.1:1',
  durationMs: 1,
  ...over,
})

describe('what a connection test is called', () => {
  it('is green "Connected" only when the service took the empty batch; a 400 or 422 to it says the token was accepted', () => {
    expect(connectionHeadline(test({ ok: true, kind: 'created', status: 201 }))).toEqual({
      title: 'Connected',
      tone: 'ok',
    })
    for (const status of [400, 422])
      expect(connectionHeadline(test({ ok: true, kind: 'rejected', status }))).toEqual({
        title: 'Token accepted',
        tone: 'partial',
      })
    expect(connectionHeadline(test({ status: 401 }))).toEqual({ title: 'Not connected', tone: 'failed' })
  })

  it('says of each encoding what the service did with it', () => {
    expect(encodingAnswerWords(test({ ok: true, kind: 'created', status: 201 }))).toBe('accepted (HTTP 201)')
    expect(encodingAnswerWords(test({ ok: true, kind: 'rejected', status: 400 }))).toBe(
      'token accepted, empty batch refused (HTTP 400)',
    )
    expect(encodingAnswerWords(test({ status: 401 }))).toBe('refused (HTTP 401)')
    expect(encodingAnswerWords(test({ kind: 'unreachable' }))).toBe('no answer about the token')
  })
})
