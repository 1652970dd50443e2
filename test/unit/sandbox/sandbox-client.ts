import { afterEach, vi } from 'vitest'
import { startSandbox, type Sandbox, type SandboxOptions } from '#node/sandbox/server.ts'
import { BULK_UPLOAD_PATH, CREATE_APP_PATH, SKU_UPDATE_PATH } from '#shared/service/endpoints.ts'
import { fixture } from '../shared/contract-fixtures.ts'

/** Talks to an in-process sandbox with Node's fetch, as the app's client would. */

export const TOKEN = 'test-token'

const running = new Set<Sandbox>()

/** A sandbox closed after the test, whatever the test did. */
export async function sandboxFor(options: Partial<SandboxOptions> = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ token: TOKEN, ...options })
  running.add(sandbox)
  return sandbox
}

afterEach(async () => {
  await Promise.all([...running].map((sandbox) => sandbox.close()))
  running.clear()
})

export const JSON_HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }

export function post(
  sandbox: Sandbox,
  path: string,
  body: unknown,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(sandbox.url + path, {
    method: 'POST',
    headers: init.headers ?? JSON_HEADERS,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(init.signal ? { signal: init.signal } : {}),
  })
}

export const postSkus = (sandbox: Sandbox, body: unknown = bulkRequest(), init = {}) =>
  post(sandbox, BULK_UPLOAD_PATH, body, init)

export const postApp = (sandbox: Sandbox, body: unknown = fixture('app-create-request.json'), init = {}) =>
  post(sandbox, CREATE_APP_PATH, body, init)

export const bulkRequest = () => fixture('bulk-upload-request.json') as { skus: Record<string, unknown>[] }

/** The address of a SKU's update. */
export const skuPath = (id: string) => SKU_UPDATE_PATH.replace('{skuId}', id)

/** A SKU's update, as the client sends it: PUT with the fields to change. */
export function putSku(
  sandbox: Sandbox,
  id: string,
  body: unknown,
  headers: Record<string, string> = JSON_HEADERS,
): Promise<Response> {
  return fetch(sandbox.url + skuPath(id), {
    method: 'PUT',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** Creates SKUs (the fixture's two by default) and returns the ids the 201 gave them, in order. */
export async function createSkus(sandbox: Sandbox, body: unknown = bulkRequest()): Promise<string[]> {
  const response = await postSkus(sandbox, body)
  if (response.status !== 201) throw new Error(`The bulk upload answered ${response.status}`)
  return ((await response.json()) as { skus: { _id: string }[] }).skus.map((sku) => sku._id)
}

/** Polls until `check` holds, for what happens on the sandbox's side after the client has moved on. */
export async function eventually(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  await vi.waitFor(
    () => {
      if (!check()) throw new Error('The condition did not hold in time')
    },
    { timeout: timeoutMs },
  )
}
