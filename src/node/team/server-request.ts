import got, { type Response } from 'got'
import type { Workspace } from './replica.ts'

/** A workspace's server that takes longer than this to answer is said to be out of reach. */
const ANSWER_MS = 10_000

/**
 * One request to the workspace's server as the desk's user, straight (not through the replica):
 * joining's check and the claims. Never redirected (the credentials go to the address given, and
 * nowhere else), never retried (each caller says what a failure means), every status answered.
 */
export function askServer(
  { username, password }: Pick<Workspace, 'username' | 'password'>,
  address: string,
  { method = 'GET', json }: { method?: 'GET' | 'POST'; json?: object } = {},
): Promise<Response<unknown>> {
  return got(address, {
    method,
    ...(json ? { json } : {}),
    headers: { Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
    throwHttpErrors: false,
    followRedirect: false,
    retry: { limit: 0 },
    timeout: { request: ANSWER_MS },
    responseType: 'json',
  })
}
