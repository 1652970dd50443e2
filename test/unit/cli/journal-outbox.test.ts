import { spawnSync } from 'node:child_process'
import { existsSync, writeSync } from 'node:fs'
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  JournalMismatchError,
  openJournalOutbox,
  type JournalOptions,
  type JournalWrite,
} from '#cli/push/journal-outbox.ts'
import { JournalBusyError, lockPathOf } from '#cli/push/journal-lock.ts'
import type { RequestRecord } from '#shared/sync/ports.ts'

/** The journal file itself: what it refuses to touch, and that a line is on disk whole or not at all. */

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-journal-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const items = {
  total: 3,
  at: (index: number) =>
    index < 3 ? { payload: { barcode: `J-${index}` }, label: `J-${index}` } : undefined,
}

function options(path: string, overrides: Partial<JournalOptions> = {}): JournalOptions {
  return { path, fingerprint: 'f1', baseUrl: 'http://127.0.0.1:4010', kind: 'skus', items, ...overrides }
}

const header = (fingerprint = 'f1') =>
  JSON.stringify({
    type: 'header',
    format: 1,
    fingerprint,
    baseUrl: 'http://127.0.0.1:4010',
    kind: 'skus',
    total: 3,
  })

const request = (keys: string[]): RequestRecord => ({
  id: `run/0/${keys.join('-')}`,
  runId: 'run',
  kind: 'skus',
  keys,
  bytes: 10,
  startedAt: 1,
  attempts: 1,
})

const wholeLines = (text: string) => {
  expect(text.endsWith('\n')).toBe(true)
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string })
}

describe('journal: a file that is not this push journal is refused untouched', () => {
  it.each([
    ['one line without a newline', 'remember the milk'],
    ['a JSON object on one line without a newline', '{"note":"not a journal"}'],
    ['lines, the last one without a newline', 'line one\nline two'],
    ['a JSON line and a torn-looking tail', '{"note":1}\n{"type":"begin","requ'],
    ['only a newline', '\n'],
  ])('%s', async (_, content) => {
    const path = join(dir, 'notes.txt')
    await writeFile(path, content)
    const opening = openJournalOutbox(options(path))
    await expect(opening).rejects.toThrow(JournalMismatchError)
    await expect(opening).rejects.toThrow(/notes\.txt is not a push journal/)
    expect(await readFile(path, 'utf8')).toBe(content)
  })

  it('says when the file holds no whole line, and that it was left as it is', async () => {
    const path = join(dir, 'notes.txt')
    await writeFile(path, 'remember the milk')
    await expect(openJournalOutbox(options(path))).rejects.toThrow(
      /holds no whole journal line.*left as it is.*another --journal/,
    )
  })

  it('the journal of another push keeps its torn last line: the header is checked before any repair', async () => {
    const path = join(dir, 'other.jsonl')
    const content = `${header('other-input')}\n{"type":"begin","requ`
    await writeFile(path, content)
    await expect(openJournalOutbox(options(path))).rejects.toThrow(/is the journal of other input/)
    expect(await readFile(path, 'utf8')).toBe(content)
  })
})

describe('journal: one push at a time', () => {
  it('a second push on the same journal is refused while the first runs, and may go once it has ended', async () => {
    const path = join(dir, 'push.jsonl')
    const first = await openJournalOutbox(options(path))
    const second = openJournalOutbox(options(path))
    await expect(second).rejects.toThrow(JournalBusyError)
    await expect(second).rejects.toThrow(
      new RegExp(`in use by another push \\(process ${process.pid} on .*create them twice`),
    )
    await first.close()
    const third = await openJournalOutbox(options(path))
    await third.close()
    expect(existsSync(lockPathOf(path))).toBe(false)
  })

  it('a journal that is not this push’s is refused without keeping the lock', async () => {
    const path = join(dir, 'other.jsonl')
    await writeFile(path, `${header('other-input')}\n`)
    await expect(openJournalOutbox(options(path))).rejects.toThrow(JournalMismatchError)
    expect(existsSync(lockPathOf(path))).toBe(false)
  })

  it('a lock left by a process that has ended is taken over', async () => {
    const path = join(dir, 'push.jsonl')
    const ended = spawnSync(process.execPath, ['-e', 'process.exit(0)'])
    await writeFile(lockPathOf(path), JSON.stringify({ pid: ended.pid, host: hostname() }))
    const outbox = await openJournalOutbox(options(path))
    expect(JSON.parse(await readFile(lockPathOf(path), 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
    })
    await outbox.close()
  })

  it('a lock naming this process, left by a former run with the same id, is taken over', async () => {
    const path = join(dir, 'push.jsonl')
    await writeFile(lockPathOf(path), JSON.stringify({ pid: process.pid, host: hostname() }))
    const outbox = await openJournalOutbox(options(path))
    await outbox.close()
    expect(existsSync(lockPathOf(path))).toBe(false)
  })

  it('closing after the lock was deleted by hand, or replaced by another push’s, leaves that one alone', async () => {
    const path = join(dir, 'push.jsonl')
    const first = await openJournalOutbox(options(path))
    await rm(lockPathOf(path))
    await first.close()
    const second = await openJournalOutbox(options(path))
    const theirs = JSON.stringify({ pid: 1, host: 'build-server-7' })
    await writeFile(lockPathOf(path), theirs)
    await second.close()
    expect(await readFile(lockPathOf(path), 'utf8')).toBe(theirs)
  })

  it('a stale lock is taken over by one push at a time, under a guard that goes stale in turn', async () => {
    const path = join(dir, 'push.jsonl')
    const ended = spawnSync(process.execPath, ['-e', 'process.exit(0)'])
    await writeFile(lockPathOf(path), JSON.stringify({ pid: ended.pid, host: hostname() }))
    // Another push is taking it over right now.
    await writeFile(`${lockPathOf(path)}.takeover`, '')
    await expect(openJournalOutbox(options(path))).rejects.toThrow(/it is taking over its lock/)
    // One that died while taking over left the guard long ago.
    const longAgo = new Date(Date.now() - 60_000)
    await utimes(`${lockPathOf(path)}.takeover`, longAgo, longAgo)
    const outbox = await openJournalOutbox(options(path))
    expect(existsSync(`${lockPathOf(path)}.takeover`)).toBe(false)
    await outbox.close()
  })

  it('a lock whose holder cannot be read, or runs on another host, counts as held', async () => {
    const path = join(dir, 'push.jsonl')
    await writeFile(lockPathOf(path), '')
    await expect(openJournalOutbox(options(path))).rejects.toThrow(/a lock file that cannot be read/)
    await writeFile(lockPathOf(path), JSON.stringify({ pid: 1, host: 'build-server-7' }))
    await expect(openJournalOutbox(options(path))).rejects.toThrow(/process 1 on build-server-7/)
  })
})

describe('journal: files it may use', () => {
  it('an empty file becomes a new journal', async () => {
    const path = join(dir, 'empty.jsonl')
    await writeFile(path, '')
    const outbox = await openJournalOutbox(options(path))
    expect(outbox.resumed).toBe(false)
    await outbox.close()
    expect(await readFile(path, 'utf8')).toBe(`${header()}\n`)
  })

  it("this push's journal: a torn last line is cut off, a whole one missing its newline is ended", async () => {
    const torn = join(dir, 'torn.jsonl')
    await writeFile(torn, `${header()}\n{"type":"begin","requ`)
    await (await openJournalOutbox(options(torn))).close()
    expect(await readFile(torn, 'utf8')).toBe(`${header()}\n`)

    const unended = join(dir, 'unended.jsonl')
    await writeFile(unended, header())
    await (await openJournalOutbox(options(unended))).close()
    expect(await readFile(unended, 'utf8')).toBe(`${header()}\n`)
  })
})

describe('journal: short writes', () => {
  it('writes the rest of a line a write took only part of', async () => {
    const path = join(dir, 'short.jsonl')
    let calls = 0
    const write: JournalWrite = (fd, buffer, offset, length) => {
      calls += 1
      return writeSync(fd, buffer, offset, Math.min(length, 7))
    }
    const outbox = await openJournalOutbox(options(path, { write }))
    await outbox.beginRequest(request(['0', '1']))
    await outbox.close()
    expect(calls).toBeGreaterThan(2)
    const lines = wholeLines(await readFile(path, 'utf8'))
    expect(lines.map((line) => line.type)).toEqual(['header', 'begin'])
  })

  it('a begin line that cannot be written whole fails the request before it leaves, and is cut off', async () => {
    const path = join(dir, 'full.jsonl')
    let full = false
    const write: JournalWrite = (fd, buffer, offset, length) => {
      if (!full) return writeSync(fd, buffer, offset, length)
      // A nearly full disk: half of what is asked, then nothing.
      if (offset > 0) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
      return writeSync(fd, buffer, offset, Math.ceil(length / 2))
    }
    const outbox = await openJournalOutbox(options(path, { write }))
    const before = await readFile(path, 'utf8')

    full = true
    await expect(outbox.beginRequest(request(['0', '1']))).rejects.toThrow(/ENOSPC/)
    // No half line is left to be cut off on the next run (which would make the items queued again).
    expect(await readFile(path, 'utf8')).toBe(before)
    expect(outbox.detail(0)?.state).toBe('queued')

    // A write that takes nothing at all is not taken for success either.
    const none: JournalWrite = () => 0
    const stuck = await openJournalOutbox(options(join(dir, 'stuck.jsonl'), { write: none })).catch(
      (error: Error) => error,
    )
    expect(stuck).toBeInstanceOf(Error)
    expect((stuck as Error).message).toMatch(/took 0 of a line's \d+ bytes/)

    // Once there is room again, the next line is whole and follows the header directly.
    full = false
    await outbox.beginRequest(request(['0', '1']))
    await outbox.close()
    const lines = wholeLines(await readFile(path, 'utf8'))
    expect(lines.map((line) => line.type)).toEqual(['header', 'begin'])

    const resumed = await openJournalOutbox(options(path))
    expect(resumed.resumed).toBe(true)
    expect(resumed.detail(0)?.state).toBe('sending')
    await resumed.close()
  })
})

describe('journal: decisions and holds', () => {
  it('a decision marks unknown or failed items created or queues them again, and a re-opened journal knows it', async () => {
    const path = join(dir, 'push.jsonl')
    const first = await openJournalOutbox(options(path))
    const sent = request(['0', '1', '2'])
    await first.beginRequest(sent)
    await first.endRequest(sent, [
      { key: '0', state: 'unknown', message: 'reset' },
      { key: '1', state: 'failed', message: '500' },
      { key: '2', state: 'synced' },
    ])
    // What a person needs to look an item up: the request that left it so, and when.
    expect(first.detail(0)).toEqual({ state: 'unknown', message: 'reset', requestId: sent.id, sentAt: 1 })
    expect(first.detail(2)).toEqual({ state: 'synced' })
    await expect(
      first.decide({ at: 5, source: 'has.csv', message: 'on the list', created: ['2'], resend: [] }),
    ).rejects.toThrow(/Item 2 is synced, not unknown or failed/)
    await first.decide({ at: 5, source: 'has.csv', message: 'on the list', created: ['0'], resend: ['1'] })
    expect(first.detail(0)).toEqual({ state: 'synced', message: 'on the list' })
    expect(first.detail(1)).toEqual({ state: 'queued' })
    await first.close()

    const lines = wholeLines(await readFile(path, 'utf8'))
    expect(lines.at(-1)).toEqual({
      type: 'decide',
      at: 5,
      source: 'has.csv',
      message: 'on the list',
      created: ['0'],
      resend: ['1'],
    })
    const again = await openJournalOutbox(options(path))
    expect(await again.counts()).toMatchObject({ synced: 2, queued: 1, unknown: 0, failed: 0 })
    expect((await again.queuedAfter(-1, 10)).map((item) => item.key)).toEqual(['1'])
    await again.close()
  })

  it('an item left sending by a crash keeps its request when recovered as unknown', async () => {
    const path = join(dir, 'push.jsonl')
    const first = await openJournalOutbox(options(path))
    await first.beginRequest(request(['1']))
    await first.close()
    const again = await openJournalOutbox(options(path))
    expect(await again.recoverInterrupted('stopped')).toBe(1)
    expect(again.detail(1)).toEqual({ state: 'unknown', message: 'stopped', requestId: 'run/0/1', sentAt: 1 })
    await again.close()
  })

  it('a held item is neither sent nor counted, nothing is written for it, and a re-run may send it', async () => {
    const path = join(dir, 'push.jsonl')
    const first = await openJournalOutbox(options(path))
    first.withhold([1])
    expect(await first.counts()).toMatchObject({ queued: 2 })
    expect((await first.queuedAfter(-1, 10)).map((item) => item.key)).toEqual(['0', '2'])
    expect(first.detail(1)).toBeUndefined()
    await first.beginRequest(request(['0']))
    await first.endRequest(request(['0']), [{ key: '0', state: 'synced' }])
    // Only queued items can be held: what the journal sent keeps its state.
    expect(() => first.withhold([0])).toThrow(/Item 0 is not queued/)
    await first.close()
    expect(wholeLines(await readFile(path, 'utf8')).map((line) => line.type)).toEqual([
      'header',
      'begin',
      'end',
    ])
    const again = await openJournalOutbox(options(path))
    expect((await again.queuedAfter(-1, 10)).map((item) => item.key)).toEqual(['1', '2'])
    await again.close()
  })
})
