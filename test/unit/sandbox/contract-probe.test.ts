import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BULK_UPLOAD_PATH, CREATE_APP_PATH, SKU_UPDATE_PATH } from '#shared/service/endpoints.ts'
import { fixture, REPO_ROOT } from '../shared/contract-fixtures.ts'

/**
 * The contract probed from outside, as anyone would with curl: the real CLI binary in its own
 * process, plain HTTP, nothing of the project's code on the client side.
 */

const CURL = [
  '/usr/bin/curl',
  ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'curl')),
].find((path) => path.startsWith('/') && existsSync(path))
if (!CURL) console.log('contract probe skipped: curl is not installed')

const TOKEN = 'probe-token'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const run = promisify(execFile)

interface RunningSandbox {
  url: string
  child: ChildProcess
  output: () => string
}

/** `catalog-desk sandbox --port 0 …` as a process; resolves with the URL it prints. */
function startCli(args: string[]): Promise<RunningSandbox> {
  const child = spawn(process.execPath, ['scripts/cli.js', 'sandbox', '--port', '0', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (output += text))
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (output += text))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The sandbox did not start:\n${output}`)), 20_000)
    child.once('exit', (code) => reject(new Error(`The sandbox exited with ${code}:\n${output}`)))
    child.stdout!.on('data', () => {
      const url = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output)?.[1]
      if (!url) return
      clearTimeout(timer)
      resolve({ url, child, output: () => output })
    })
  })
}

async function stopCli(sandbox: RunningSandbox | undefined): Promise<number | null> {
  if (!sandbox || sandbox.child.exitCode !== null) return sandbox?.child.exitCode ?? null
  const exited = new Promise<number | null>((resolve) => sandbox.child.once('exit', resolve))
  sandbox.child.kill('SIGTERM')
  return exited
}

interface CurlResult {
  status: number
  body: string
  json: () => unknown
}

async function curl(args: string[]): Promise<CurlResult> {
  const { stdout } = await run(CURL!, ['-s', '-o', '-', '-w', '\n%{http_code}', ...args], {
    cwd: REPO_ROOT,
    maxBuffer: 10 * 1024 * 1024,
  })
  const cut = stdout.lastIndexOf('\n')
  const body = stdout.slice(0, cut)
  return { status: Number(stdout.slice(cut + 1)), body, json: () => JSON.parse(body) as unknown }
}

const bearer = (value = TOKEN) => ['-H', `Authorization: Bearer ${value}`]
const jsonType = ['-H', 'Content-Type: application/json']

/** A POST as the contract describes it: token, JSON content type, the body from a file or a string. */
function postTo(url: string, data: string, headers: string[] = [...bearer(), ...jsonType]) {
  return curl(['-X', 'POST', ...headers, '--data-binary', data, url])
}

describe.skipIf(!CURL)('contract probe: curl against catalog-desk sandbox', () => {
  let sandbox: RunningSandbox | undefined
  let base64Sandbox: RunningSandbox | undefined

  beforeAll(async () => {
    ;[sandbox, base64Sandbox] = await Promise.all([
      startCli(['--token', TOKEN, '--max-batch', '2']),
      startCli(['--token', TOKEN, '--token-encoding', 'base64']),
    ])
  }, 30_000)

  afterAll(async () => {
    const codes = await Promise.all([stopCli(sandbox), stopCli(base64Sandbox)])
    expect(codes).toEqual([0, 0])
    expect(sandbox!.output()).toMatch(/Sandbox stopped\.\n$/)
  })

  beforeEach(async () => {
    expect((await curl(['-X', 'DELETE', `${sandbox!.url}/__sandbox/received`])).status).toBe(204)
  })

  const skusUrl = () => sandbox!.url + BULK_UPLOAD_PATH
  const appsUrl = () => sandbox!.url + CREATE_APP_PATH
  const received = async () =>
    (await curl([`${sandbox!.url}/__sandbox/received`])).json() as { skus: unknown[] }

  it('prints the token encoding and the control endpoints', () => {
    expect(sandbox!.output()).toContain('accepted as it is after "Authorization: Bearer "')
    expect(sandbox!.output()).toContain(`GET    ${sandbox!.url}/__sandbox/received`)
    expect(sandbox!.output()).not.toContain(TOKEN)
    expect(base64Sandbox!.output()).toContain('accepted base64-encoded')
  })

  it('201 for the bulk upload fixture, and /__sandbox/received lists what was stored', async () => {
    const result = await postTo(skusUrl(), '@test/fixtures/bulk-upload-request.json')
    expect(result.status).toBe(201)
    const sent = fixture('bulk-upload-request.json').skus as { barcode: string }[]
    expect(result.json()).toEqual({
      message: 'Created',
      count: 2,
      skus: sent.map((sku) => ({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), barcode: sku.barcode })),
    })
    const { skus } = await received()
    expect(skus.map((entry) => (entry as { sku: unknown }).sku)).toEqual(
      fixture('bulk-upload-request.json').skus,
    )
  })

  it('PUT …/skus/{id} with the _id the 201 gave changes only the fields sent; an unknown id is 404 {message}', async () => {
    const created = await postTo(skusUrl(), '@test/fixtures/bulk-upload-request.json')
    const id = (created.json() as { skus: { _id: string }[] }).skus[1]!._id
    const url = sandbox!.url + SKU_UPDATE_PATH.replace('{skuId}', id)
    const put = (address: string, data: string) =>
      curl(['-X', 'PUT', ...bearer(), ...jsonType, '--data-binary', data, address])
    const updated = await put(url, '{"brand": "Probe Optics"}')
    expect(updated.status).toBe(200)
    const sent = (fixture('bulk-upload-request.json') as { skus: Record<string, unknown>[] }).skus[1]!
    expect(updated.json()).toEqual({ message: 'Updated', sku: { ...sent, brand: 'Probe Optics', _id: id } })
    const { skus } = (await received()) as { skus: { sku: unknown; updates: unknown[] }[] }
    expect(skus[1]).toMatchObject({
      sku: { brand: 'Probe Optics' },
      updates: [{ body: { brand: 'Probe Optics' } }],
    })
    const missing = await put(url.replace(id, 'f'.repeat(24)), '{"brand": "Nobody"}')
    expect(missing.status).toBe(404)
    expect(missing.json()).toEqual({ message: `SKU ${'f'.repeat(24)} not found` })
  })

  it('201 for the app creation fixture: {app} in the contract’s response shape', async () => {
    const result = await postTo(appsUrl(), '@test/fixtures/app-create-request.json')
    expect(result.status).toBe(201)
    const { app } = result.json() as { app: Record<string, never> }
    expect(Object.keys(app)).toEqual(Object.keys(fixture('app-create-response.json').app as object))
    expect(app._id).toMatch(UUID)
    expect(app.appConfig).toMatchObject({ _id: expect.stringMatching(UUID), app_id: app._id })
    expect(app.created_at).toMatch(ISO)
    expect(app.appConfig).toMatchObject({
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    })
    expect(app.copilot).toEqual({})
    expect(app).toMatchObject({
      name: 'Northwind Skin Check',
      status: 'enabled',
      expire_images_after_days: 365,
      report_config: { features: {}, skinConcerns: {}, report_titles: {}, overallSkinScore: {} },
      appConfig: {
        ui_config: { advance: {}, screens: { loadingScreen: {}, instructionScreen: {} }, customCode: {} },
      },
    })
  })

  it('401 without a token and with a wrong one; the answer never echoes a token', async () => {
    const missing = await postTo(skusUrl(), '@test/fixtures/bulk-upload-request.json', jsonType)
    expect(missing.status).toBe(401)
    expect(missing.json()).toEqual({ message: expect.stringContaining('Authorization: Bearer <token>') })
    const wrong = await postTo(skusUrl(), '@test/fixtures/bulk-upload-request.json', [
      ...bearer('guess'),
      ...jsonType,
    ])
    expect(wrong.status).toBe(401)
    expect(wrong.body).not.toMatch(/guess|probe-token/)
    expect((await received()).skus).toEqual([])
  })

  it('a sandbox set to base64 accepts the base64 token and refuses the raw one', async () => {
    const url = base64Sandbox!.url + BULK_UPLOAD_PATH
    const encoded = Buffer.from(TOKEN).toString('base64')
    const raw = await postTo(url, '@test/fixtures/bulk-upload-request.json')
    expect(raw.status).toBe(401)
    const good = await postTo(url, '@test/fixtures/bulk-upload-request.json', [
      ...bearer(encoded),
      ...jsonType,
    ])
    expect(good.status).toBe(201)
  })

  it('415 without a JSON content type', async () => {
    // curl's --data-binary sends application/x-www-form-urlencoded unless told otherwise.
    const result = await postTo(skusUrl(), '@test/fixtures/bulk-upload-request.json', bearer())
    expect(result.status).toBe(415)
    expect(result.json()).toEqual({ message: expect.stringContaining('application/json') })
  })

  it('400 for malformed JSON, with the parser’s message at path ""', async () => {
    const result = await postTo(skusUrl(), '{"skus": [')
    expect(result.status).toBe(400)
    expect(result.json()).toEqual({
      message: 'The body is not valid JSON',
      errors: [{ path: '', message: expect.any(String) }],
    })
  })

  it('400 for an invalid item, with the item’s position in the path; nothing of the batch is stored', async () => {
    const request = fixture('bulk-upload-request.json') as { skus: Record<string, unknown>[] }
    request.skus[1]!.isActive = 'yes'
    const result = await postTo(skusUrl(), JSON.stringify(request))
    expect(result.status).toBe(400)
    const body = result.json() as { message: string; errors: { path: string; message: string }[] }
    expect(body.message).toBe('1 SKU of 2 is invalid; nothing was stored')
    expect(body.errors).toEqual([{ path: 'skus.1.isActive', message: expect.any(String) }])
    expect((await received()).skus).toEqual([])
  })

  it('413 above the maximum batch (--max-batch 2); nothing stored', async () => {
    const { skus } = fixture('bulk-upload-request.json') as { skus: unknown[] }
    const result = await postTo(skusUrl(), JSON.stringify({ skus: [...skus, skus[0]] }))
    expect(result.status).toBe(413)
    expect(result.json()).toEqual({
      message: 'The batch holds 3 SKUs; this sandbox accepts at most 2 a request',
    })
    expect((await received()).skus).toEqual([])
  })

  it('404 {message} for another path', async () => {
    const result = await postTo(`${sandbox!.url}/service/platform/misc/v1.0/skus`, '{}')
    expect(result.status).toBe(404)
    expect(result.json()).toEqual({ message: expect.any(String) })
  })
})
