import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ProfileView } from '#shared/profile.ts'
import { BUILT_IN_PROFILES } from '#shared/profile.ts'
import type { Outcome } from '#shared/service/outcome.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { stateAt } from '#shared/sync/standing.ts'
import type { ClaimAnswer, ClaimRequest } from '#shared/team/claims.ts'
import full from '../../fixtures/sku-eyewear-full.json'

// A team run resumed after its window was reloaded mid-send (stores/sync/run-launch.ts): main's
// late answer puts the batch it had out back in the queue ("try again later"), and that batch must
// be claimed with the rest before anything is sent, never sent unclaimed.
const main = vi.hoisted(() => ({
  /** In order: each claim (the barcodes claimed) and each request sent (its barcodes). */
  timeline: [] as string[],
  barcodes: new Map<string, string>(),
}))
vi.mock('#renderer/adapters/team-workspace.ts', () => ({
  teamWorkspaceInMain: {
    status: async () => ({
      state: 'joined',
      url: 'http://127.0.0.1:5984/autumn',
      name: 'ana',
      replication: { kind: 'up-to-date' },
    }),
    async claim({ drafts }: ClaimRequest): Promise<ClaimAnswer> {
      main.timeline.push(`claim ${drafts.map(({ id }) => main.barcodes.get(id)).join(',')}`)
      const taken = drafts.map(({ kind, id }) => ({ kind, id }))
      return { ok: true, taken, held: [], stopped: [], serverNow: 1, recorded: [] }
    },
    sendRecords: async () => [],
    recordSends: async () => {},
    releaseClaims: async () => {},
    renewClaims: async () => [],
  },
}))

const PRODUCTION = 'https://api.example.test'
const production: ProfileView = {
  ...BUILT_IN_PROFILES[0]!,
  id: 'production',
  name: 'Production',
  kind: 'service',
  baseUrl: PRODUCTION,
  url: PRODUCTION,
  destination: PRODUCTION,
  batchSize: 1,
  concurrency: 1,
  hasToken: true,
  tokenStorage: 'keychain',
  builtIn: false,
}
const created: Outcome = { kind: 'created', processed: 'yes', status: 201, message: 'Created', durationMs: 1 }
const later: Outcome = {
  kind: 'retry-later',
  processed: 'no',
  status: 503,
  message: 'The service is busy: try again later.',
  durationMs: 1,
}
/** Main's answer to the request the reloaded window left out: still out until a page waits for it. */
let answered = false

Object.assign(globalThis, {
  window: {
    addEventListener: () => {},
    api: {
      listProfiles: async () => ({ profiles: [production], activeId: 'production' }),
      testConnection: async () => ({ kind: 'ok' }),
      syncSend: async (_profile: string, _destination: string, { argument }: { argument: Sku[] }) => {
        main.timeline.push(`send ${argument.map((sku) => sku.barcode).join(',')}`)
        return created
      },
      async syncAnswers(requestIds: string[], wait: boolean) {
        if (wait) answered = true
        return Object.fromEntries(requestIds.map((id) => [id, answered ? later : 'sending']))
      },
    },
  },
})

const { db, skuDrafts, syncRuns } = await import('#renderer/db/index.ts')
const { DexieSyncOutbox } = await import('#renderer/db/sync-outbox.ts')
const { useSyncStore } = await import('#renderer/stores/sync.ts')

beforeEach(async () => {
  setActivePinia(createPinia())
  main.timeline = []
  main.barcodes.clear()
  answered = false
  await db.delete()
  await db.open()
})

describe('a team run resumed after a reload mid-send', () => {
  it('claims the batch main’s late answer put back in the queue before sending it', async () => {
    const drafts = []
    for (const barcode of ['4006381333931', '4006381333948', '4006381333955']) {
      const draft = await skuDrafts.create({ ...structuredClone(full), barcode } as Sku, 1_000)
      main.barcodes.set(draft.id, barcode)
      drafts.push(draft)
    }
    const { run } = await syncRuns.enqueue('skus', {
      target: {
        id: 'production',
        name: 'Production',
        url: PRODUCTION,
        destination: PRODUCTION,
        batchSize: 1,
        concurrency: 1,
      },
    })
    // The window that sent the first draft was reloaded while main waited on the service.
    await new DexieSyncOutbox(db, run).beginRequest({
      id: `${run.id}/gone/1`,
      runId: run.id,
      kind: 'skus',
      keys: [drafts[0]!.id],
      bytes: 1,
      startedAt: 2_000,
    })

    const store = useSyncStore()
    await store.init()
    await store.resumeRun(run.id)
    await vi.waitFor(() => expect(store.live?.endedAt).toBeDefined())

    expect(store.log.map((line) => line.text)).toContain(
      "Waiting for the service's answer to 1 request sent before the window was reloaded or closed…",
    )
    const firstSend = main.timeline.findIndex((step) => step.startsWith('send'))
    const claimed = main.timeline.slice(0, firstSend).flatMap((step) => step.replace('claim ', '').split(','))
    expect(claimed.sort()).toEqual([...main.barcodes.values()].sort())
    expect(main.timeline.filter((step) => step.startsWith('send')).sort()).toEqual([
      'send 4006381333931',
      'send 4006381333948',
      'send 4006381333955',
    ])
    const standings = await db.skuDrafts.bulkGet(drafts.map((draft) => draft.id))
    expect(standings.map((draft) => stateAt(draft!.sync, PRODUCTION))).toEqual(['synced', 'synced', 'synced'])
  })
})
