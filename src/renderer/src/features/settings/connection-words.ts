import type { ConnectionTest } from '#shared/ipc.ts'
import { encodingAnswer, type EncodingAnswer } from './encoding-test.ts'

/**
 * What a connection test's result is called, and its tone. Green "Connected" only when the service
 * took the empty test batch (2xx). A 400, 413 or 422 to it says the service read the request past
 * its token check and refused the batch itself: the token was accepted, and that is all it says.
 */
export function connectionHeadline(test: ConnectionTest): {
  title: string
  tone: 'ok' | 'partial' | 'failed'
} {
  if (!test.ok) return { title: 'Not connected', tone: 'failed' }
  return test.kind === 'created'
    ? { title: 'Connected', tone: 'ok' }
    : { title: 'Token accepted', tone: 'partial' }
}

const ANSWER_WORDS: Record<EncodingAnswer, string> = {
  accepted: 'accepted',
  refused: 'refused',
  'not-sent': 'not sent',
  unknown: 'no answer about the token',
}

/**
 * One encoding's line after "Test both encodings": "accepted (HTTP 201)", "token accepted, empty
 * batch refused (HTTP 400)", "refused (HTTP 401)".
 */
export function encodingAnswerWords(test: ConnectionTest): string {
  const answer = encodingAnswer(test)
  const words =
    answer === 'accepted' && test.kind !== 'created'
      ? 'token accepted, empty batch refused'
      : ANSWER_WORDS[answer]
  return `${words}${test.status ? ` (HTTP ${test.status})` : ''}`
}
