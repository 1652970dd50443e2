import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it, vi } from 'vitest'

const downloads = vi.hoisted(() => [] as File[])
vi.mock('#renderer/adapters/download.ts', () => ({
  download: (file: File) => downloads.push(file),
}))

const { db } = await import('#renderer/db/index.ts')
const { appDrafts } = await import('#renderer/db/app-drafts.ts')
const { useAppDraftsStore } = await import('#renderer/stores/app-drafts.ts')
const { setStanding } = await import('./standings.ts')

beforeEach(async () => {
  setActivePinia(createPinia())
  downloads.length = 0
  await db.appDrafts.clear()
})

describe('the app drafts store', () => {
  it('creates a draft from the defaults and lists it', async () => {
    const store = useAppDraftsStore()
    await store.load()
    expect(store.loaded).toBe(true)
    expect(store.drafts).toEqual([])
    const id = await store.create()
    expect(store.drafts.map((draft) => draft.id)).toEqual([id])
    expect(store.drafts[0]).toMatchObject({ name: '', sync: {}, standing: [], validity: 'warnings' })
  })

  it('deletes with an undo that puts the draft back exactly', async () => {
    const store = useAppDraftsStore()
    const record = await appDrafts.create({ name: 'Glow' }, 1000)
    await store.load()
    await store.remove(record.id)
    expect(store.drafts).toEqual([])
    expect(store.notice).toMatchObject({ message: '“Glow” deleted.', undo: record.id })
    await store.undo()
    expect(store.drafts).toEqual([record])
    expect(store.notice?.message).toBe('“Glow” restored.')
    // Nothing left to undo: a second undo changes nothing.
    await store.undo()
    expect(store.drafts).toEqual([record])
  })

  it('undoes only the delete its notice reports', async () => {
    const store = useAppDraftsStore()
    const a = await appDrafts.create({ name: 'A' }, 1000)
    const b = await appDrafts.create({ name: 'B' }, 2000)
    await store.remove(a.id)
    await store.remove(b.id)
    await store.undo()
    expect(store.drafts.map((draft) => draft.name)).toEqual(['B'])
    // After another message, Undo no longer applies to the delete.
    await store.remove(b.id)
    store.tell('Something else')
    await store.undo()
    expect(store.drafts).toEqual([])
  })

  it('says why a delete failed and keeps the draft', async () => {
    const store = useAppDraftsStore()
    const { id } = await appDrafts.create({ name: 'Sent' })
    await setStanding(db.appDrafts, id, 'synced')
    await store.remove(id)
    expect(store.notice).toMatchObject({
      tone: 'error',
      message:
        'Nothing was deleted: This app has been sent; its record is kept, so it is never created twice.',
    })
    expect(store.drafts).toHaveLength(1)
  })

  it('duplicates, and exports a draft’s request JSON named after the app', async () => {
    const store = useAppDraftsStore()
    const { id, payload } = await appDrafts.create({ name: 'Northwind Skin Check', status: 'enabled' })
    const copy = await store.duplicate(id)
    expect(store.drafts.map((draft) => draft.name).sort()).toEqual([
      'Northwind Skin Check',
      'Northwind Skin Check (copy)',
    ])
    expect(copy).toBeDefined()
    await store.exportDraft(id)
    expect(downloads).toHaveLength(1)
    const [file] = downloads
    expect(file!.name).toBe('app-northwind-skin-check.json')
    expect(file!.type).toBe('application/json')
    expect(JSON.parse(await file!.text())).toEqual(payload)
    expect(store.notice?.message).toBe('“Northwind Skin Check” exported to app-northwind-skin-check.json.')
    await store.exportDraft('gone')
    expect(store.notice).toMatchObject({
      tone: 'error',
      message: 'Export failed: this app draft no longer exists',
    })
  })
})
