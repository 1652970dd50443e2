import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { REDACTED } from '#node/secrets/redaction.ts'

// startMainLog (src/main/logging.ts) against a stand-in for Electron's app.
const fake = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => unknown
  const listeners = new Map<string, Listener[]>()
  const app = {
    isPackaged: true,
    logs: '',
    getVersion: () => '3.2.1',
    getPath: vi.fn((name: string) => {
      if (name === 'logs') return app.logs
      throw new Error(`unexpected app.getPath(${name})`)
    }),
    on: (event: string, listener: Listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener])
      return app
    },
  }
  return {
    app,
    emit: (event: string, ...args: unknown[]) =>
      (listeners.get(event) ?? []).forEach((listener) => listener(...args)),
    reset: () => listeners.clear(),
  }
})
vi.mock('electron', () => ({ app: fake.app }))

const { startMainLog } = await import('#main/logging.ts')

let dir = ''
beforeEach(async () => {
  fake.reset()
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-main-log-'))
  fake.app.logs = join(dir, 'Logs', 'Catalog Desk')
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('startMainLog', () => {
  it("writes to main.log in Electron's logs folder, starting with the versions, without the console when packaged", async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    const log = startMainLog((text) => text)
    expect(fake.app.getPath).toHaveBeenCalledWith('logs')
    expect(log.file).toBe(join(fake.app.logs, 'main.log'))
    const written = await readFile(log.file, 'utf8')
    expect(written).toMatch(
      new RegExp(
        `\\[info\\]\\s+Catalog Desk 3\\.2\\.1 starting \\(installed build\\): Electron -, Chrome -, Node ${process.versions.node}, ${process.platform} ${process.arch}\\.`,
      ),
    )
    expect(info).not.toHaveBeenCalled()
  })

  it('passes every entry through the redaction it is given', async () => {
    const log = startMainLog((text) => text.replaceAll('s3cret', REDACTED))
    log.error('request failed', { headers: { 'x-api-key': 's3cret' } })
    const written = await readFile(log.file, 'utf8')
    expect(written).not.toContain('s3cret')
    expect(written).toContain(REDACTED)
  })

  it('logs uncaught exceptions (watching only), and a window page or helper process that died', async () => {
    const log = startMainLog((text) => text)
    // What Node does with an exception nobody caught, before Electron's own handling.
    ;(process.emit as (event: string, ...args: unknown[]) => boolean)(
      'uncaughtExceptionMonitor',
      new Error('boom in main'),
      'uncaughtException',
    )
    fake.emit('render-process-gone', {}, {}, { reason: 'crashed', exitCode: 139 })
    fake.emit('render-process-gone', {}, {}, { reason: 'clean-exit', exitCode: 0 })
    fake.emit('child-process-gone', {}, { type: 'GPU', reason: 'oom', exitCode: 9 })
    const problems = await log.problems(10)
    expect(problems).toHaveLength(3)
    expect(problems[0]).toMatch(/\[error\]\s+An uncaught exception Error: boom in main/)
    expect(problems[1]).toMatch(/The window's page stopped \(crashed, exit code 139\)\.$/)
    expect(problems[2]).toMatch(/A helper process stopped: GPU, oom, exit code 9\.$/)
  })

  it('falls back to the data folder when Electron names no logs folder', async () => {
    fake.app.getPath.mockImplementation((name: string) => {
      if (name === 'userData') return join(dir, 'data')
      throw new Error('no logs path')
    })
    expect(startMainLog((text) => text).folder).toBe(join(dir, 'data', 'logs'))
  })
})
