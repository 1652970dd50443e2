import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppLog, LOG_MAX_BYTES, problemEntries } from '#node/app-log.ts'
import { knownTokens } from '#node/secrets/known-tokens.ts'
import { REDACTED, tokenForms } from '#node/secrets/redaction.ts'

const TOKEN = 'pxb-live-0123456789abcdef+/='

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-log-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe("main's log", () => {
  it('writes main.log in the folder it is given, one entry a line with its time and level', async () => {
    const log = createAppLog({ folder: join(dir, 'logs'), redact: (text) => text, console: false })
    log.info('Catalog Desk starting')
    log.warn('something to know')
    expect(log.file).toBe(join(dir, 'logs', 'main.log'))
    const lines = (await readFile(log.file, 'utf8')).trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] \[info\]\s+Catalog Desk starting$/)
    expect(lines[1]).toMatch(/\[warn\]\s+something to know$/)
  })

  it('never writes a token it knows, however it was logged: text, a request object, an error', async () => {
    const known = knownTokens()
    known.remember(TOKEN)
    const log = createAppLog({ folder: dir, redact: known.redact, console: false })
    const base64 = Buffer.from(TOKEN).toString('base64')
    log.info(`sending with ${TOKEN}`)
    log.error('request failed', {
      url: `https://api.example.com/upload?token=${encodeURIComponent(TOKEN)}`,
      headers: { authorization: `Bearer ${base64}` },
      nested: { deeper: { still: [TOKEN] } },
    })
    log.error(
      'the service echoed it',
      new Error(`401: bad token ${Buffer.from(TOKEN).toString('base64url')}`),
    )
    // A token nobody told the log about is still not written when it is sent as a credential.
    log.warn('proxy said: Authorization: Bearer someone-elses-token')
    const written = await readFile(log.file, 'utf8')
    for (const form of tokenForms(TOKEN)) expect(written).not.toContain(form)
    expect(written).not.toContain('someone-elses-token')
    expect(written.split(REDACTED).length - 1).toBeGreaterThanOrEqual(5)
    expect(written).toContain('request failed')
    expect(written).toContain('Error: 401: bad token')
  })

  it('rotates at 1 MB into one archive, main.old.log, replaced at each rotation', async () => {
    expect(LOG_MAX_BYTES).toBe(1024 * 1024)
    const log = createAppLog({ folder: dir, redact: (text) => text, console: false })
    const line = 'x'.repeat(1000)
    for (let i = 0; i < 1_100; i++) log.info(`first ${i} ${line}`)
    expect((await readdir(dir)).sort()).toEqual(['main.log', 'main.old.log'])
    expect((await stat(log.file)).size).toBeLessThan(LOG_MAX_BYTES)
    for (let i = 0; i < 1_100; i++) log.info(`second ${i} ${line}`)
    expect((await readdir(dir)).sort()).toEqual(['main.log', 'main.old.log'])
    const archive = await readFile(join(dir, 'main.old.log'), 'utf8')
    expect(archive).toContain('second 0 ')
    expect(archive).not.toContain('first 0 ')
  })

  it('gives the last warnings and errors, oldest first, each with a few lines of its stack', async () => {
    const log = createAppLog({ folder: dir, redact: (text) => text, console: false })
    log.info('fine')
    log.warn('first warning')
    log.error('it broke', new Error('deep down'))
    log.info('fine again')
    log.error('second error')
    const problems = await log.problems(2)
    expect(problems).toHaveLength(2)
    expect(problems[0]).toMatch(/\[error\]\s+it broke Error: deep down\n\s+at /)
    expect(problems[0]!.split('\n')).toHaveLength(6)
    expect(problems[1]).toMatch(/\[error\]\s+second error$/)
    expect(await log.problems(10)).toHaveLength(3)
  })

  it('writes to the console only when asked (development)', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    createAppLog({ folder: dir, redact: (text) => text, console: false }).info('quiet')
    expect(info).not.toHaveBeenCalled()
    createAppLog({ folder: dir, redact: (text) => text, console: true }).info('loud')
    expect(info).toHaveBeenCalledOnce()
  })
})

describe('problemEntries', () => {
  it('reads entries across lines, and ignores the others', () => {
    const text = [
      '[2026-01-01 10:00:00.000] [info]  started',
      '[2026-01-01 10:00:01.000] [warn]  a warning',
      '[2026-01-01 10:00:02.000] [error] failed Error: x',
      '    at one',
      '    at two',
      '[2026-01-01 10:00:03.000] [info]  fine',
      '    not part of any problem',
    ].join('\n')
    expect(problemEntries(text)).toEqual([
      '[2026-01-01 10:00:01.000] [warn]  a warning',
      '[2026-01-01 10:00:02.000] [error] failed Error: x\n    at one\n    at two',
    ])
  })
})
