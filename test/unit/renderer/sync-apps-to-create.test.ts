import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { BUILT_IN_PROFILES, type ProfileView } from '#shared/profile.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { setStanding } from './standings.ts'

// The Sync page asks before creating apps, showing each: what it shows is what a run would take.

const sandbox: ProfileView = {
  ...BUILT_IN_PROFILES[0]!,
  url: 'http://127.0.0.1:1',
  destination: EMBEDDED_SANDBOX_DESTINATION,
  hasToken: true,
  tokenStorage: 'embedded-sandbox',
  builtIn: true,
}
Object.assign(globalThis, {
  window: {
    addEventListener: () => {},
    api: { listProfiles: async () => ({ profiles: [sandbox], activeId: sandbox.id }) },
  },
})

const { db } = await import('#renderer/db/index.ts')
const { appDrafts } = await import('#renderer/db/app-drafts.ts')
const { useSyncStore } = await import('#renderer/stores/sync.ts')

beforeEach(async () => {
  setActivePinia(createPinia())
  await db.appDrafts.clear()
})

describe('the apps a run would create', () => {
  it('are the valid ones never sent to the active destination, latest edit first', async () => {
    await appDrafts.create({ name: 'Older' }, 1000)
    await appDrafts.create({ name: 'Newer' }, 2000)
    const broken = await appDrafts.create({ name: 'Broken' }, 3000)
    await db.appDrafts.update(broken.id, { validity: 'invalid', errorCount: 1 })
    const created = await appDrafts.create({ name: 'Created' }, 4000)
    await setStanding(db.appDrafts, created.id, 'synced', EMBEDDED_SANDBOX_DESTINATION)
    const elsewhere = await appDrafts.create({ name: 'Elsewhere' }, 5000)
    await setStanding(db.appDrafts, elsewhere.id, 'synced', 'https://other.example')

    const store = useSyncStore()
    await store.init()
    const names = (await store.appsToCreate()).map((app) => app.name)
    expect(names).toEqual(['Elsewhere', 'Newer', 'Older'])
    expect(store.toSend('apps')).toBe(names.length)
  })
})
