import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { faultSpecOf, parseFaultSpec } from '#cli/fault-spec.ts'
import { CliError } from '#cli/io.ts'
import { main } from '#cli/main.ts'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'
import { bulkRequest, sandboxFor } from './sandbox-client.ts'
import { BULK_UPLOAD_PATH } from '#shared/service/endpoints.ts'

interface CliSession {
  stdout: () => string
  stderr: () => string
  /** Resolves with the exit status once the command returns. */
  done: Promise<number>
  stop: () => void
}

/** Runs the CLI in-process with a stop signal, as the binary runs it with SIGINT. */
function startCommand(argv: string[], cwd = REPO_ROOT): CliSession {
  let stdout = ''
  let stderr = ''
  const controller = new AbortController()
  const done = main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    signal: controller.signal,
  })
  return { stdout: () => stdout, stderr: () => stderr, done, stop: () => controller.abort() }
}

async function listeningUrl(session: CliSession): Promise<string> {
  return vi.waitFor(
    () => {
      const url = /Sandbox listening on (\S+)\n/.exec(session.stdout())?.[1]
      if (!url) throw new Error(`No URL printed:\n${session.stdout()}${session.stderr()}`)
      return url
    },
    { timeout: 5_000 },
  )
}

let scratch = ''
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'catalog-desk-sandbox-cli-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

describe('catalog-desk sandbox', () => {
  it('runs until stopped, with its faults and store file, then exits 0', async () => {
    const session = startCommand(
      [
        'sandbox',
        '--port',
        '0',
        '--token',
        'cli-token',
        '--fault',
        'server-error',
        '--store',
        'received.json',
      ],
      scratch,
    )
    const url = await listeningUrl(session)
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(session.stdout()).toContain('Faults: server-error:before:times=1\n')
    expect(session.stdout()).toContain('kept in received.json')
    const send = () =>
      fetch(url + BULK_UPLOAD_PATH, {
        method: 'POST',
        headers: { authorization: 'Bearer cli-token', 'content-type': 'application/json' },
        body: JSON.stringify(bulkRequest()),
      })
    expect((await send()).status).toBe(500)
    expect((await send()).status).toBe(201)
    session.stop()
    expect(await session.done).toBe(0)
    expect(session.stdout()).toMatch(/Sandbox stopped\.\n$/)
    // JSON Lines: the store's header, then the one batch stored.
    const [header, ...saved] = (await readFile(join(scratch, 'received.json'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { skus?: unknown[] })
    expect(header).toEqual({ format: 2 })
    expect(saved.flatMap((line) => line.skus)).toHaveLength(2)
  })

  it('--full-app-response is passed on as emptyNestedObjects false', async () => {
    const session = startCommand(['sandbox', '--port', '0', '--full-app-response'])
    const url = await listeningUrl(session)
    const response = await fetch(`${url}/service/platform/misc/v1.0/apps`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
      body: await readFile(join(REPO_ROOT, 'test/fixtures/app-create-request.json')),
    })
    const { app } = (await response.json()) as { app: { report_config: { features: object } } }
    expect(Object.keys(app.report_config.features)).toEqual([
      'beautyGptChatbot',
      'futureSkinSimulation',
      'productRecommendation',
    ])
    session.stop()
    expect(await session.done).toBe(0)
  })

  it("--no-ids answers bulk uploads {message, count} alone; without it, with each SKU's _id", async () => {
    const send = (url: string) =>
      fetch(url + BULK_UPLOAD_PATH, {
        method: 'POST',
        headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
        body: JSON.stringify(bulkRequest()),
      }).then((response) => response.json())
    const plain = startCommand(['sandbox', '--port', '0', '--no-ids'])
    const withIds = startCommand(['sandbox', '--port', '0'])
    const [plainUrl, idsUrl] = await Promise.all([listeningUrl(plain), listeningUrl(withIds)])
    expect(plain.stdout()).toContain('Bulk uploads are answered without ids: {message, count} (--no-ids)\n')
    expect(withIds.stdout()).toContain("Bulk uploads are answered with each SKU's _id and barcode")
    expect(withIds.stdout()).toMatch(
      / {2}PUT {2}http:\/\/127\.0\.0\.1:\d+\/service\/platform\/misc\/v2\.0\/skus\/\{skuId\}\n/,
    )
    expect(await send(plainUrl)).toEqual({ message: 'Created', count: 2 })
    expect(await send(idsUrl)).toMatchObject({
      count: 2,
      skus: [{ _id: expect.any(String) }, { _id: expect.any(String) }],
    })
    plain.stop()
    withIds.stop()
    expect(await Promise.all([plain.done, withIds.done])).toEqual([0, 0])
  })

  it('a port in use is exit 2 with a hint', async () => {
    const other = await sandboxFor()
    const session = startCommand(['sandbox', '--port', String(other.port)])
    expect(await session.done).toBe(2)
    expect(session.stderr()).toBe(
      `catalog-desk: Port ${other.port} is in use: choose another with --port (0 picks a free one).\n`,
    )
  })

  it('an unreadable store file is exit 2', async () => {
    const session = startCommand(['sandbox', '--port', '0', '--store', 'package.json'])
    expect(await session.done).toBe(2)
    expect(session.stderr()).toMatch(
      /^catalog-desk: Cannot start the sandbox: .*package\.json cannot be used: it is not a sandbox store/,
    )
  })

  it.each([
    [['--port', 'abc'], '--port must be a whole number from 0 to 65535, not "abc".'],
    [['--port', '70000'], '--port must be a whole number from 0 to 65535, not "70000".'],
    [['--max-batch', '0'], '--max-batch must be a whole number from 1 to 100000, not "0".'],
    [['--token-encoding', 'hex'], '--token-encoding is raw, base64 or either, not "hex".'],
    [['--token', ''], '--token cannot be empty.'],
    [
      ['--fault', 'meteor'],
      'Bad --fault "meteor": unknown fault "meteor"; the faults are latency, rate-limit,',
    ],
    [['extra'], 'sandbox takes no FILE; given: extra'],
    [['--colour'], "Unknown option '--colour'."],
  ])('%j is bad usage: exit 2', async (args, message) => {
    const session = startCommand(['sandbox', ...args])
    expect(await session.done).toBe(2)
    expect(session.stdout()).toBe('')
    expect(session.stderr()).toContain(`catalog-desk: ${message}`)
    expect(session.stderr()).toContain('Run "catalog-desk sandbox --help" for usage.\n')
  })

  it('--help documents the options and the fault syntax; the main usage lists the command', async () => {
    const help = startCommand(['sandbox', '--help'])
    expect(await help.done).toBe(0)
    expect(help.stdout()).toMatch(/^Usage: catalog-desk sandbox \[--port N\]/)
    expect(help.stdout()).toContain('slow-response:after:delay=5000:times=3')
    expect(help.stdout()).toContain('--no-ids')
    expect(help.stdout()).toContain('endpoint=skus|apps|sku-update')
    const usage = startCommand(['--help'])
    await usage.done
    expect(usage.stdout()).toContain('sandbox [options]')
  })
})

describe('--fault SPEC', () => {
  it.each([
    ['rate-limit', { kind: 'rate-limit' }],
    ['server-error:after', { kind: 'server-error', stage: 'after' }],
    ['unavailable:retry-after=2', { kind: 'unavailable', retryAfterSeconds: 2 }],
    [
      'slow-response:after:delay=5000:times=3',
      { kind: 'slow-response', stage: 'after', delayMs: 5000, times: 3 },
    ],
    ['reset:before:endpoint=skus', { kind: 'reset', stage: 'before', endpoint: 'skus' }],
    ['html-error:times=forever:endpoint=apps', { kind: 'html-error', times: null, endpoint: 'apps' }],
    ['server-error:endpoint=sku-update', { kind: 'server-error', endpoint: 'sku-update' }],
    ['latency:stage=before:delay=0', { kind: 'latency', stage: 'before', delayMs: 0 }],
  ])('%s', (spec, rule) => {
    expect(parseFaultSpec(spec)).toEqual(rule)
    // What the banner prints reads back as the same rule, every default spelled out.
    const spelled = faultSpecOf(parseFaultSpec(spec))
    expect(spelled).toMatch(/:times=(\d+|forever)/)
    expect(parseFaultSpec(spelled)).toMatchObject(rule)
  })

  it('the banner spells out the defaults: the stage, how many times, the delay', () => {
    expect(faultSpecOf(parseFaultSpec('reset:endpoint=skus:times=2'))).toBe(
      'reset:before:endpoint=skus:times=2',
    )
    expect(faultSpecOf(parseFaultSpec('server-error:rate=0.1:endpoint=apps'))).toBe(
      'server-error:before:endpoint=apps:times=forever:rate=0.1',
    )
    expect(faultSpecOf(parseFaultSpec('latency'))).toMatch(/^latency:before:times=1:delay=\d+$/)
  })

  it.each([
    ['', 'unknown fault ""'],
    ['reset:sideways', '"sideways" is neither before, after nor KEY=VALUE'],
    ['reset::after', 'an empty part'],
    ['reset:before:after', 'the stage is given twice'],
    ['reset:endpoint=orders', 'endpoint is skus, apps or sku-update, not "orders"'],
    ['reset:times=0', 'times: '],
    ['reset:times=two', 'times must be a whole number, not "two"'],
    ['latency:delay=-5', 'delay must be a whole number, not "-5"'],
    ['latency:delay=9999999', 'delay: '],
    ['reset:color=red', 'unknown setting "color"'],
  ])('%j is refused: %s', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(CliError)
    expect(() => parseFaultSpec(spec)).toThrow(`Bad --fault "${spec}": ${message}`)
  })
})
