import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { BUILT_IN_PROFILES, type ProfileView } from '#shared/profile.ts'
import type { Outcome } from '#shared/service/outcome.ts'
import type { Sku } from '#shared/schema/sku.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { stateAt } from '#shared/sync/standing.ts'

/** What main would answer, held until the test lets each request finish. */
const sent: string[][] = []
/** The destination each request was sent for: main sends only while the profile still leads there. */
const destinations: string[] = []
const answers: Array<(outcome: Outcome) => void> = []
/** In order, each request sent and each step the test took ("answer", "resume"): what went out after what. */
const timeline: string[] = []
const created: Outcome = { kind: 'created', processed: 'yes', status: 201, message: 'Created', durationMs: 1 }
const sandbox: ProfileView = {
  ...BUILT_IN_PROFILES[0]!,
  batchSize: 2,
  url: 'http://127.0.0.1:1',
  destination: EMBEDDED_SANDBOX_DESTINATION,
  hasToken: true,
  tokenStorage: 'embedded-sandbox',
  builtIn: true,
}
// The store runs in the page: a `window` with the bridge, as the preload builds it.
Object.assign(globalThis, {
  window: {
    addEventListener: () => {},
    api: {
      listProfiles: async () => ({ profiles: [sandbox], activeId: 'sandbox' }),
      syncSend: (_profile: string, destination: string, { argument: skus }: { argument: Sku[] }) => {
        destinations.push(destination)
        sent.push(skus.map((sku) => String(sku.barcode)))
        timeline.push(`send ${sent.at(-1)!.join(',')}`)
        return new Promise<Outcome>((resolve) =>
          answers.push((outcome) => {
            timeline.push('answer')
            resolve(outcome)
          }),
        )
      },
    },
  },
})

const { db, skuDrafts } = await import('#renderer/db/index.ts')
const { useSyncStore } = await import('#renderer/stores/sync.ts')

async function until(check: () => boolean) {
  await vi.waitFor(() => expect(check()).toBe(true))
}

beforeEach(async () => {
  setActivePinia(createPinia())
  sent.length = 0
  destinations.length = 0
  answers.length = 0
  timeline.length = 0
  await Promise.all([
    db.skuDrafts.clear(),
    db.syncRuns.clear(),
    db.syncItems.clear(),
    db.syncRequests.clear(),
  ])
})

describe('the sync store', () => {
  it('a second start or resume while a run is sending starts nothing: no batch goes out twice', async () => {
    for (let i = 0; i < 4; i++)
      await skuDrafts.create({ ...structuredClone(full), barcode: `b${i}` } as Sku, 1_000 - i)
    const store = useSyncStore()
    await store.init()
    expect(store.toSend('skus')).toBe(4)

    const first = store.start('skus')
    await until(() => sent.length === 1)
    const [run] = await db.syncRuns.toArray()
    // Clicked again, and the run offered for resuming from another place of the page.
    await store.start('skus')
    await store.resumeRun(run!.id)
    expect(sent).toHaveLength(1)

    answers[0]!(created)
    await until(() => sent.length === 2)
    answers[1]!(created)
    await first
    await until(() => store.live?.endedAt !== undefined)
    expect(sent.flat().sort()).toEqual(['b0', 'b1', 'b2', 'b3'])
    expect(await db.syncRuns.count()).toBe(1)
    expect(destinations).toEqual([EMBEDDED_SANDBOX_DESTINATION, EMBEDDED_SANDBOX_DESTINATION])
    expect((await db.syncRuns.toArray())[0]).toMatchObject({ destination: EMBEDDED_SANDBOX_DESTINATION })
    expect(
      (await db.skuDrafts.toArray()).map((draft) => stateAt(draft.sync, EMBEDDED_SANDBOX_DESTINATION)),
    ).toEqual(['synced', 'synced', 'synced', 'synced'])
  })

  it("sends adaptively up to the profile's concurrency: one first, more once the service keeps up; the live run says how many", async () => {
    for (let i = 0; i < 8; i++)
      await skuDrafts.create({ ...structuredClone(full), barcode: `b${i}` } as Sku, 1_000 - i)
    sandbox.concurrency = 2
    try {
      const store = useSyncStore()
      await store.init()
      const done = store.start('skus')
      await until(() => sent.length === 1)
      expect(store.live?.concurrency).toEqual({ limit: 1, max: 2 })
      answers[0]!(created)
      await until(() => sent.length === 3)
      expect(store.live?.concurrency).toEqual({ limit: 2, max: 2 })
      answers[1]!(created)
      answers[2]!(created)
      await until(() => sent.length === 4)
      answers[3]!(created)
      await done
      await until(() => store.live?.endedAt !== undefined)
      expect(sent.flat().sort()).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7'])
      // One at a time to begin with, although the profile allows two: the second request went out
      // only once the first was answered, then two at once.
      expect(timeline.slice(0, 4)).toEqual(['send b0,b1', 'answer', 'send b2,b3', 'send b4,b5'])
    } finally {
      sandbox.concurrency = BUILT_IN_PROFILES[0]!.concurrency
    }
  })

  it('a decision on a paused run goes through its engine: the run stays paused, and what is sent again goes out once after Resume', async () => {
    for (let i = 0; i < 8; i++)
      await skuDrafts.create({ ...structuredClone(full), barcode: `b${i}` } as Sku, 1_000 - i)
    const store = useSyncStore()
    await store.init()
    void store.start('skus')
    const failed: Outcome = {
      kind: 'failed',
      processed: 'maybe',
      status: 500,
      message: 'HTTP 500',
      durationMs: 1,
    }
    const unknown: Outcome = {
      kind: 'unknown',
      processed: 'maybe',
      status: 504,
      message: 'HTTP 504',
      durationMs: 1,
    }
    for (const [i, answer] of [failed, unknown, unknown].entries()) {
      await until(() => sent.length === i + 1)
      answers[i]!(answer)
    }
    await until(() => store.live?.status.state === 'paused')
    const [run] = await db.syncRuns.toArray()
    const [first, second, third] = (await store.batchesOf(run!.id, 'skus', 10)).undecided
    await store.resolve(first!.id, 'resend', run!.id)
    await store.resolve(second!.id, 'created', run!.id)
    expect(store.error).toBe('')
    expect(store.log.map((line) => line.text)).toEqual(
      expect.arrayContaining([
        '2 drafts queued to be sent again: the run stays paused and sends them when you press Resume.',
        '2 drafts marked as created.',
      ]),
    )
    expect(store.live?.status).toMatchObject({ state: 'paused', reason: 'failing' })
    expect(store.live?.counts).toMatchObject({ queued: 4, synced: 2, failed: 0, unknown: 2 })
    expect(sent).toHaveLength(3)

    timeline.push('resume')
    store.resume()
    for (let i = 3; i < 5; i++) {
      await until(() => sent.length === i + 1)
      answers[i]!(created)
    }
    await until(() => store.live?.endedAt !== undefined)
    expect(sent).toEqual([
      ['b0', 'b1'],
      ['b2', 'b3'],
      ['b4', 'b5'],
      ['b0', 'b1'],
      ['b6', 'b7'],
    ])
    // What a decision queued again went out after Resume, not before.
    expect(timeline.slice(timeline.indexOf('resume'))).toEqual([
      'resume',
      'send b0,b1',
      'answer',
      'send b6,b7',
      'answer',
    ])
    expect(store.live?.counts).toMatchObject({ queued: 0, synced: 6, unknown: 2 })
    expect((await store.batchesOf(run!.id, 'skus', 10)).undecided.map((r) => r.id)).toEqual([third!.id])
  })

  it('a decision leaves the batches waiting at once, and a second one on the same batch changes nothing and says nothing', async () => {
    for (let i = 0; i < 8; i++)
      await skuDrafts.create({ ...structuredClone(full), barcode: `b${i}` } as Sku, 1_000 - i)
    const store = useSyncStore()
    await store.init()
    void store.start('skus')
    const unknown: Outcome = {
      kind: 'unknown',
      processed: 'maybe',
      status: 504,
      message: 'HTTP 504',
      durationMs: 1,
    }
    for (let i = 0; i < 3; i++) {
      await until(() => sent.length === i + 1)
      answers[i]!(unknown)
    }
    await until(() => store.live?.status.state === 'paused')
    const [run] = await db.syncRuns.toArray()
    const [first, second] = (await store.batchesOf(run!.id, 'skus', 10)).undecided

    // Confirmed: the batch is out of those waiting before its decision is even written.
    const deciding = store.resolve(first!.id, 'created', run!.id)
    expect(store.deciding.has(first!.id)).toBe(true)
    const waiting = (await store.batchesOf(run!.id, 'skus', 10)).undecided.map((request) => request.id)
    expect(waiting).not.toContain(first!.id)
    // Pressed again meanwhile (the card lingered): nothing.
    await store.resolve(first!.id, 'resend', run!.id)
    await deciding
    // And again once recorded (another window's page, a stale card): nothing moves, nothing is said.
    await store.resolve(first!.id, 'resend', run!.id)
    expect(store.error).toBe('')
    const lines = store.log.map((line) => line.text)
    expect(lines.filter((line) => line.includes('marked as created'))).toEqual([
      '2 drafts marked as created.',
    ])
    expect(lines.filter((line) => line.includes('queued to be sent again'))).toEqual([])
    expect(lines.some((line) => line.startsWith('0 '))).toBe(false)
    expect((await db.syncRequests.get(first!.id))?.resolution?.choice).toBe('created')
    expect(store.live?.counts).toMatchObject({ synced: 2, unknown: 4, queued: 2 })
    expect((await store.batchesOf(run!.id, 'skus', 10)).undecided.map((r) => r.id)).not.toContain(first!.id)
    expect((await store.batchesOf(run!.id, 'skus', 10)).undecided.map((r) => r.id)).toContain(second!.id)
    store.resume()
    await until(() => sent.length === 4)
    answers[3]!(created)
    await until(() => store.live?.endedAt !== undefined)
    expect(sent).toHaveLength(4)
  })
})
