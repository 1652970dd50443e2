import { describe, expect, it } from 'vitest'
import { OutboxConflictError, type RequestRecord, type SyncOutbox } from '#shared/sync/ports.ts'

/**
 * What every SyncOutbox must do for the engine (src/shared/sync/ports.ts), run against each of
 * them: the memory outbox of the engine's tests, the app's Dexie outbox over IndexedDB and the
 * CLI's journal on a file. What only one of them does (the drafts' states, the journal's lines,
 * how each finds what a crash left sending once restarted) stays in that outbox's own tests.
 */
export interface OutboxUnderTest {
  outbox: SyncOutbox
  dispose(): Promise<void>
}

/** An outbox holding `count` queued items at positions 0 to count - 1. */
export type OutboxFactory = (count: number) => Promise<OutboxUnderTest>

const unchangedCounts = { queued: 4, sending: 0, synced: 0, rejected: 0, failed: 0, unknown: 0 }

function request(keys: readonly string[], id = `contract/${keys.join(',')}`): RequestRecord {
  return { id, runId: 'contract', kind: 'skus', keys: [...keys], bytes: 10, startedAt: 1, attempts: 1 }
}

function ended(sent: RequestRecord): RequestRecord {
  return {
    ...sent,
    endedAt: sent.startedAt + 5,
    outcome: { kind: 'created', processed: 'yes', message: 'ok', durationMs: 5, action: 'synced' },
  }
}

export function outboxContract(name: string, factory: OutboxFactory): void {
  describe(`${name}: the outbox contract`, () => {
    async function withOutbox(count: number, test: (under: OutboxUnderTest) => Promise<void>) {
      const under = await factory(count)
      try {
        await test(under)
      } finally {
        await under.dispose()
      }
    }

    it('reads the queued items in position order, a page at a time, after a cursor', () =>
      withOutbox(5, async ({ outbox }) => {
        const first = await outbox.queuedAfter(-Infinity, 2)
        expect(first.map((item) => item.position)).toEqual([0, 1])
        const rest = await outbox.queuedAfter(1, 10)
        expect(rest.map((item) => item.position)).toEqual([2, 3, 4])
        const keys = [...first, ...rest].map((item) => item.key)
        expect(new Set(keys).size).toBe(5)
        expect(await outbox.queuedAfter(4, 10)).toEqual([])
        expect(await outbox.counts()).toEqual({ ...unchangedCounts, queued: 5 })
      }))

    it('a request begun: its items are sending and not read again; ended: each in the state it was given', () =>
      withOutbox(4, async ({ outbox }) => {
        const [a, b, c, d] = await outbox.queuedAfter(-Infinity, 10)
        const sent = request([a!.key, b!.key])
        await outbox.beginRequest(sent)
        expect(await outbox.counts()).toEqual({ ...unchangedCounts, queued: 2, sending: 2 })
        expect((await outbox.queuedAfter(-Infinity, 10)).map((item) => item.key)).toEqual([c!.key, d!.key])

        await outbox.endRequest(ended(sent), [
          { key: a!.key, state: 'synced' },
          { key: b!.key, state: 'rejected', message: 'barcode: taken' },
        ])
        expect(await outbox.counts()).toEqual({ ...unchangedCounts, queued: 2, synced: 1, rejected: 1 })
        // Provably not processed: back to queued, and read again in its place.
        const again = request([c!.key])
        await outbox.beginRequest(again)
        await outbox.endRequest(ended(again), [{ key: c!.key, state: 'queued' }])
        expect((await outbox.queuedAfter(-Infinity, 10)).map((item) => item.key)).toEqual([c!.key, d!.key])
      }))

    it('beginRequest refuses, changing nothing, an item it does not hold and one already sending', () =>
      withOutbox(4, async ({ outbox }) => {
        const [a, b] = await outbox.queuedAfter(-Infinity, 10)
        await expect(outbox.beginRequest(request([a!.key, 'no-such-item']))).rejects.toBeInstanceOf(
          OutboxConflictError,
        )
        expect(await outbox.counts()).toEqual(unchangedCounts)

        await outbox.beginRequest(request([a!.key], 'first'))
        await expect(outbox.beginRequest(request([a!.key, b!.key], 'second'))).rejects.toBeInstanceOf(
          OutboxConflictError,
        )
        expect(await outbox.counts()).toEqual({ ...unchangedCounts, queued: 3, sending: 1 })
      }))

    it('endRequest refuses a request that never began and an item the request is not sending, changing nothing', () =>
      withOutbox(4, async ({ outbox }) => {
        const [a, b] = await outbox.queuedAfter(-Infinity, 10)
        await expect(
          outbox.endRequest(ended(request([a!.key], 'never')), [{ key: a!.key, state: 'synced' }]),
        ).rejects.toBeInstanceOf(OutboxConflictError)
        expect(await outbox.counts()).toEqual(unchangedCounts)

        const sent = request([a!.key])
        await outbox.beginRequest(sent)
        await expect(
          outbox.endRequest(ended(sent), [
            { key: a!.key, state: 'synced' },
            { key: b!.key, state: 'synced' },
          ]),
        ).rejects.toBeInstanceOf(OutboxConflictError)
        expect(await outbox.counts()).toEqual({ ...unchangedCounts, queued: 3, sending: 1 })
        await outbox.endRequest(ended(sent), [{ key: a!.key, state: 'synced' }])
        expect(await outbox.counts()).toEqual({ ...unchangedCounts, queued: 3, synced: 1 })
      }))

    it('recovered, what was sending is unknown and never read again; a second recovery changes nothing', () =>
      withOutbox(4, async ({ outbox }) => {
        const [a, b, c, d] = await outbox.queuedAfter(-Infinity, 10)
        await outbox.beginRequest(request([a!.key, b!.key]))
        // Stopped here: the answer never came, endRequest never ran.
        expect(await outbox.recoverInterrupted('Stopped while sending.')).toBe(2)
        expect(await outbox.counts()).toEqual({ ...unchangedCounts, queued: 2, unknown: 2 })
        expect((await outbox.queuedAfter(-Infinity, 10)).map((item) => item.key)).toEqual([c!.key, d!.key])
        expect(await outbox.recoverInterrupted('Stopped again.')).toBe(0)
      }))
  })
}
