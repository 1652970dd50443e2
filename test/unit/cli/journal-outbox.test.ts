import { spawnSync } from 'node:child_process'
import { existsSync, writeSync } from 'node:fs'
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  JournalMismatchError,
  openJournal,
  type Journal,
  type JournalOptions,
  type JournalWrite,
  type RunItem,
} from '#cli/push/journal-outbox.ts'
import { JournalBusyError, lockPathOf } from '#cli/push/journal-lock.ts'
import type { RequestRecord } from '#shared/sync/ports.ts'

/**
 * The journal file itself: what it refuses to touch, that a line is on disk whole or not at all,
 * and what it records of each barcode across runs.
 */

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-desk-journal-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const ADDRESS = 'http://127.0.0.1:4010'

function options(path: string, overrides: Partial<JournalOptions> = {}): JournalOptions {
  return { path, baseUrl: ADDRESS, kind: 'skus', ...overrides }
}

const header = (baseUrl = ADDRESS) => JSON.stringify({ type: 'header', format: 2, baseUrl, kind: 'skus' })

/** Three SKUs, J-0 to J-2, as a run creates them: the payload is what stands there once synced. */
const payloadOf = (item: Pick<RunItem, 'index'>) => ({ barcode: `J-${item.index}`, brand: 'B' })
const ITEMS: RunItem[] = [0, 1, 2].map((index) => ({ key: `J-${index}`, index, label: `J-${index}` }))
const creations = (journal: Journal, items = ITEMS) =>
  journal.outbox({
    action: 'create',
    items,
    send: payloadOf,
    stands: (item) => ({ payload: payloadOf(item), fingerprint: `f${item.index}` }),
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
    const opening = openJournal(options(path))
    await expect(opening).rejects.toThrow(JournalMismatchError)
    await expect(opening).rejects.toThrow(/notes\.txt is not a push journal/)
    expect(await readFile(path, 'utf8')).toBe(content)
  })

  it('says when the file holds no whole line, and that it was left as it is', async () => {
    const path = join(dir, 'notes.txt')
    await writeFile(path, 'remember the milk')
    await expect(openJournal(options(path))).rejects.toThrow(
      /holds no whole journal line.*left as it is.*another --journal/,
    )
  })

  it('the journal of another address keeps its torn last line: the header is checked before any repair', async () => {
    const path = join(dir, 'other.jsonl')
    const content = `${header('https://other.example.com')}\n{"type":"begin","requ`
    await writeFile(path, content)
    await expect(openJournal(options(path))).rejects.toThrow(
      /is the journal of a push to https:\/\/other\.example\.com, not http:\/\/127\.0\.0\.1:4010/,
    )
    expect(await readFile(path, 'utf8')).toBe(content)
  })

  it('a journal of apps is not one of SKUs', async () => {
    const path = join(dir, 'apps.jsonl')
    const content = `${JSON.stringify({ type: 'header', format: 2, baseUrl: ADDRESS, kind: 'apps' })}\n`
    await writeFile(path, content)
    await expect(openJournal(options(path))).rejects.toThrow(/is a journal of apps sent to .*, not of SKUs/)
    expect(await readFile(path, 'utf8')).toBe(content)
  })
})

describe('journal: one push at a time', () => {
  it('a second push on the same journal is refused while the first runs, and may go once it has ended', async () => {
    const path = join(dir, 'push.jsonl')
    const first = await openJournal(options(path))
    const second = openJournal(options(path))
    await expect(second).rejects.toThrow(JournalBusyError)
    await expect(second).rejects.toThrow(
      new RegExp(`in use by another push \\(process ${process.pid} on .*create them twice`),
    )
    await first.close()
    const third = await openJournal(options(path))
    await third.close()
    expect(existsSync(lockPathOf(path))).toBe(false)
  })

  it('a journal that is not this push’s is refused without keeping the lock', async () => {
    const path = join(dir, 'other.jsonl')
    await writeFile(path, `${header('https://other.example.com')}\n`)
    await expect(openJournal(options(path))).rejects.toThrow(JournalMismatchError)
    expect(existsSync(lockPathOf(path))).toBe(false)
  })

  it('a lock left by a process that has ended is taken over', async () => {
    const path = join(dir, 'push.jsonl')
    const ended = spawnSync(process.execPath, ['-e', 'process.exit(0)'])
    await writeFile(lockPathOf(path), JSON.stringify({ pid: ended.pid, host: hostname() }))
    const outbox = await openJournal(options(path))
    expect(JSON.parse(await readFile(lockPathOf(path), 'utf8'))).toEqual({
      pid: process.pid,
      host: hostname(),
    })
    await outbox.close()
  })

  it('a lock naming this process, left by a former run with the same id, is taken over', async () => {
    const path = join(dir, 'push.jsonl')
    await writeFile(lockPathOf(path), JSON.stringify({ pid: process.pid, host: hostname() }))
    const outbox = await openJournal(options(path))
    await outbox.close()
    expect(existsSync(lockPathOf(path))).toBe(false)
  })

  it('closing after the lock was deleted by hand, or replaced by another push’s, leaves that one alone', async () => {
    const path = join(dir, 'push.jsonl')
    const first = await openJournal(options(path))
    await rm(lockPathOf(path))
    await first.close()
    const second = await openJournal(options(path))
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
    await expect(openJournal(options(path))).rejects.toThrow(/it is taking over its lock/)
    // One that died while taking over left the guard long ago.
    const longAgo = new Date(Date.now() - 60_000)
    await utimes(`${lockPathOf(path)}.takeover`, longAgo, longAgo)
    const outbox = await openJournal(options(path))
    expect(existsSync(`${lockPathOf(path)}.takeover`)).toBe(false)
    await outbox.close()
  })

  it('a lock whose holder cannot be read, or runs on another host, counts as held', async () => {
    const path = join(dir, 'push.jsonl')
    await writeFile(lockPathOf(path), '')
    await expect(openJournal(options(path))).rejects.toThrow(/a lock file that cannot be read/)
    await writeFile(lockPathOf(path), JSON.stringify({ pid: 1, host: 'build-server-7' }))
    await expect(openJournal(options(path))).rejects.toThrow(/process 1 on build-server-7/)
  })
})

describe('journal: files it may use', () => {
  it('an empty file becomes a new journal', async () => {
    const path = join(dir, 'empty.jsonl')
    await writeFile(path, '')
    const outbox = await openJournal(options(path))
    expect(outbox.resumed).toBe(false)
    await outbox.close()
    expect(await readFile(path, 'utf8')).toBe(`${header()}\n`)
  })

  it("this push's journal: a torn last line is cut off, a whole one missing its newline is ended", async () => {
    const torn = join(dir, 'torn.jsonl')
    await writeFile(torn, `${header()}\n{"type":"begin","requ`)
    await (await openJournal(options(torn))).close()
    expect(await readFile(torn, 'utf8')).toBe(`${header()}\n`)

    const unended = join(dir, 'unended.jsonl')
    await writeFile(unended, header())
    await (await openJournal(options(unended))).close()
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
    const journal = await openJournal(options(path, { write }))
    await creations(journal).beginRequest(request(['J-0', 'J-1']))
    await journal.close()
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
    const journal = await openJournal(options(path, { write }))
    const outbox = creations(journal)
    const before = await readFile(path, 'utf8')

    full = true
    await expect(outbox.beginRequest(request(['J-0', 'J-1']))).rejects.toThrow(/ENOSPC/)
    // No half line is left to be cut off on the next run (which would make the items queued again).
    expect(await readFile(path, 'utf8')).toBe(before)
    expect(outbox.stateOf('J-0')).toBe('queued')
    expect(journal.record('J-0')).toBeUndefined()

    // A write that takes nothing at all is not taken for success either.
    const none: JournalWrite = () => 0
    const stuck = await openJournal(options(join(dir, 'stuck.jsonl'), { write: none })).catch(
      (error: Error) => error,
    )
    expect(stuck).toBeInstanceOf(Error)
    expect((stuck as Error).message).toMatch(/took 0 of a line's \d+ bytes/)

    // Once there is room again, the next line is whole and follows the header directly.
    full = false
    await outbox.beginRequest(request(['J-0', 'J-1']))
    await journal.close()
    const lines = wholeLines(await readFile(path, 'utf8'))
    expect(lines.map((line) => line.type)).toEqual(['header', 'begin'])

    const resumed = await openJournal(options(path))
    expect(resumed.resumed).toBe(true)
    expect(resumed.record('J-0')?.last?.state).toBe('sending')
    await resumed.close()
  })
})

describe('journal: what it records of each barcode', () => {
  it('what stands there is found again after a re-open, read from the line that sent it; nothing else is kept', async () => {
    const path = join(dir, 'push.jsonl')
    const first = await openJournal(options(path))
    const sent = request(['J-0', 'J-1'])
    const outbox = creations(first)
    expect((await outbox.queuedAfter(-1, 10)).map((item) => item.key)).toEqual(['J-0', 'J-1', 'J-2'])
    await outbox.beginRequest(sent)
    await outbox.endRequest(sent, [
      { key: 'J-0', state: 'synced', remoteId: 'id-0' },
      { key: 'J-1', state: 'rejected', message: 'refused' },
    ])
    expect((await outbox.queuedAfter(-1, 10)).map((item) => item.key)).toEqual(['J-2'])
    expect(await outbox.counts()).toMatchObject({ queued: 1, synced: 1, rejected: 1 })
    await first.close()

    const again = await openJournal(options(path))
    expect(again.resumed).toBe(true)
    expect(again.record('J-0')).toEqual({
      stands: { fingerprint: 'f0', line: expect.any(Number), at: 0 },
      id: 'id-0',
    })
    expect(again.standingPayload('J-0')).toEqual({ barcode: 'J-0', brand: 'B' })
    // A refused creation keeps what it sent by fingerprint (an unchanged SKU is not sent again), and stands nowhere.
    expect(again.record('J-1')).toMatchObject({
      last: { action: 'create', state: 'rejected', fingerprint: 'f1', message: 'refused' },
    })
    expect(again.standingPayload('J-1')).toBeUndefined()
    expect(again.record('J-2')).toBeUndefined()
    await again.close()
  })

  it('an update synced moves what stands there; one provably not processed leaves it as it was', async () => {
    const path = join(dir, 'push.jsonl')
    const journal = await openJournal(options(path))
    const created = request(['J-0'])
    await creations(journal, [ITEMS[0]!]).beginRequest(created)
    await creations(journal, [ITEMS[0]!]).endRequest(created, [
      { key: 'J-0', state: 'synced', remoteId: 'id-0' },
    ])
    const updates = (brand: string) =>
      journal.outbox({
        action: 'update',
        items: [ITEMS[0]!],
        send: () => ({ skuId: 'id-0', fields: { brand } }),
        stands: () => ({ payload: { barcode: 'J-0', brand }, fingerprint: `f-${brand}` }),
      })
    const busy = updates('C')
    const notSent = request(['J-0'])
    await busy.beginRequest(notSent)
    expect(journal.record('J-0')?.last).toMatchObject({ action: 'update', state: 'sending' })
    await busy.endRequest(notSent, [{ key: 'J-0', state: 'queued' }])
    expect(journal.record('J-0')).toEqual({
      stands: { fingerprint: 'f0', line: expect.any(Number), at: 0 },
      id: 'id-0',
    })

    const updated = request(['J-0'])
    const outbox = updates('D')
    await outbox.beginRequest(updated)
    await outbox.endRequest(updated, [{ key: 'J-0', state: 'synced' }])
    await journal.close()
    const again = await openJournal(options(path))
    expect(again.record('J-0')).toEqual({
      stands: { fingerprint: 'f-D', line: expect.any(Number), at: 0 },
      id: 'id-0',
    })
    expect(again.standingPayload('J-0')).toEqual({ barcode: 'J-0', brand: 'D' })
    await again.close()
  })
})

describe('journal: decisions and recovery', () => {
  it('a decision marks unknown or failed creations created or queues them again, and a re-opened journal knows it', async () => {
    const path = join(dir, 'push.jsonl')
    const first = await openJournal(options(path))
    const sent = request(['J-0', 'J-1', 'J-2'])
    const outbox = creations(first)
    await outbox.beginRequest(sent)
    await outbox.endRequest(sent, [
      { key: 'J-0', state: 'unknown', message: 'reset' },
      { key: 'J-1', state: 'failed', message: '500' },
      { key: 'J-2', state: 'synced' },
    ])
    // What a person needs to look an item up: the request that left it so, and when.
    expect(first.record('J-0')?.last).toMatchObject({
      state: 'unknown',
      message: 'reset',
      requestId: sent.id,
      sentAt: 1,
    })
    await expect(
      first.decide({ at: 5, source: 'has.csv', message: 'on the list', created: ['J-2'], resend: [] }),
    ).rejects.toThrow(/J-2 is not an unknown or failed creation/)
    await first.decide({
      at: 5,
      source: 'has.csv',
      message: 'on the list',
      created: ['J-0'],
      resend: ['J-1'],
    })
    // Marked created: what was sent stands there.
    expect(first.standingPayload('J-0')).toEqual({ barcode: 'J-0', brand: 'B' })
    expect(first.record('J-1')?.last).toEqual({ action: 'create', state: 'queued' })
    await first.close()

    const lines = wholeLines(await readFile(path, 'utf8'))
    expect(lines.at(-1)).toEqual({
      type: 'decide',
      at: 5,
      source: 'has.csv',
      message: 'on the list',
      created: ['J-0'],
      resend: ['J-1'],
    })
    const again = await openJournal(options(path))
    expect(again.record('J-0')?.stands?.fingerprint).toBe('f0')
    expect(again.record('J-1')?.last).toEqual({ action: 'create', state: 'queued' })
    await again.close()
  })

  it('a key left sending by a crash keeps its request when recovered as unknown, counted by action', async () => {
    const path = join(dir, 'push.jsonl')
    const first = await openJournal(options(path))
    await creations(first).beginRequest(request(['J-1']))
    await first.close()
    const again = await openJournal(options(path))
    expect(await again.recoverInterrupted('stopped')).toEqual({ create: 1, update: 0 })
    expect(again.record('J-1')?.last).toMatchObject({
      action: 'create',
      state: 'unknown',
      message: 'stopped',
      requestId: 'run/0/J-1',
      sentAt: 1,
    })
    await again.close()
  })

  it('ids a person gives are recorded, and one for an update that found nothing makes it updatable again', async () => {
    const path = join(dir, 'push.jsonl')
    const journal = await openJournal(options(path))
    const created = request(['J-0'])
    const outbox = creations(journal)
    await outbox.beginRequest(created)
    await outbox.endRequest(created, [{ key: 'J-0', state: 'synced', remoteId: 'old' }])
    const update = journal.outbox({
      action: 'update',
      items: [ITEMS[0]!],
      send: () => ({ skuId: 'old', fields: {} }),
      stands: () => ({ payload: {}, fingerprint: 'x' }),
    })
    const gone = request(['J-0'])
    await update.beginRequest(gone)
    await update.endRequest(gone, [
      { key: 'J-0', state: 'rejected', message: 'SKU old not found', gone: true },
    ])
    expect(journal.record('J-0')?.last).toMatchObject({ state: 'rejected', gone: true })
    await journal.setIds('ids.csv', new Map([['J-0', 'new']]))
    await journal.close()
    const again = await openJournal(options(path))
    expect(again.record('J-0')).toEqual({
      stands: { fingerprint: 'f0', line: expect.any(Number), at: 0 },
      id: 'new',
    })
    await again.close()
  })
})

describe('journal: one of the earlier format', () => {
  const legacy = [
    JSON.stringify({
      type: 'header',
      format: 1,
      fingerprint: 'f1',
      baseUrl: ADDRESS,
      kind: 'skus',
      total: 3,
    }),
    JSON.stringify({ type: 'begin', request: request(['0']) }),
  ].join('\n')

  it('is refused untouched when the push cannot carry it over', async () => {
    const path = join(dir, 'old.jsonl')
    await writeFile(path, `${legacy}\n`)
    await expect(openJournal(options(path))).rejects.toThrow(/journal of an earlier catalog-desk/)
    await expect(
      openJournal(
        options(path, {
          adoptLegacy: () => {
            throw new JournalMismatchError('the file has changed since')
          },
        }),
      ),
    ).rejects.toThrow(/the file has changed since/)
    expect(await readFile(path, 'utf8')).toBe(`${legacy}\n`)
    expect(existsSync(lockPathOf(path))).toBe(false)
  })

  it('is replaced whole by what it says, by barcode, when the push carries it over', async () => {
    const path = join(dir, 'old.jsonl')
    await writeFile(path, `${legacy}\n`)
    const journal = await openJournal(
      options(path, {
        adoptLegacy: (found) => {
          expect(found.header.fingerprint).toBe('f1')
          expect(found.lines).toHaveLength(1)
          return {
            at: 7,
            source: path,
            fingerprint: 'f1',
            records: [{ key: 'J-0', state: 'unknown', fingerprint: 'f0', message: 'stopped' }],
            payloads: [{ barcode: 'J-0' }],
          }
        },
      }),
    )
    expect(journal.adopted('f1')).toBe(true)
    expect(journal.record('J-0')?.last).toMatchObject({
      action: 'create',
      state: 'unknown',
      fingerprint: 'f0',
    })
    await journal.close()
    expect(wholeLines(await readFile(path, 'utf8')).map((line) => line.type)).toEqual(['header', 'adopt'])
    // Now a journal of this format: opened again as it is.
    const again = await openJournal(options(path))
    expect(again.record('J-0')?.last?.state).toBe('unknown')
    await again.close()
  })
})
