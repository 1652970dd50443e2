import 'fake-indexeddb/auto'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { newAppPayload } from '#shared/apps/defaults.ts'
import type { AppCreateRequest } from '#shared/schema/app.ts'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { AppDraftRepository } from '#renderer/db/app-drafts.ts'
import type { AppDraftRecord } from '#renderer/db/records.ts'
import request from '../../fixtures/app-create-request.json'
import { saveDraftPayload } from '#renderer/db/stored-kinds.ts'
import { stateAt } from '#shared/sync/standing.ts'
import { DEST, setStanding } from './standings.ts'

let name = ''
let db: CatalogDatabase
let apps: AppDraftRepository

beforeEach(() => {
  name = `catalog-desk-test-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  apps = new AppDraftRepository(db)
})

afterEach(async () => {
  db.close()
  await Dexie.delete(name)
})

describe('app drafts in IndexedDB', () => {
  it('creates a draft from the defaults, with its columns derived from the payload', async () => {
    const record = await apps.create(undefined, 1000)
    expect(record).toMatchObject({
      name: '',
      createdAt: 1000,
      updatedAt: 1000,
      sync: {},
      standing: [],
      validity: 'warnings',
      errorCount: 0,
      warningCount: 2,
    })
    expect(await apps.get(record.id)).toEqual(record)
    expect(record.payload).toEqual(newAppPayload())
  })

  it('keeps a payload exactly as written, unknown fields included', async () => {
    const payload = { ...structuredClone(request), campaign: { id: 7 } } as AppCreateRequest
    payload.report_config!.features!.extra = { kept: true }
    const record = await apps.create(payload)
    expect((await apps.get(record.id))!.payload).toEqual(payload)
    expect(record).toMatchObject({ name: 'Northwind Skin Check', validity: 'valid' })
  })

  it('saves a new payload and recomputes name and validity', async () => {
    const { id } = await apps.create(undefined, 1000)
    const payload = { ...newAppPayload(), name: 'Glow', expire_images_after_days: -5 }
    const saved = await saveDraftPayload(db, 'apps', id, payload, 2000)
    expect(saved).toMatchObject({
      name: 'Glow',
      updatedAt: 2000,
      createdAt: 1000,
      validity: 'invalid',
      errorCount: 1,
    })
    // Stored marked as waiting to be shared, should a team workspace be joined (db/team-waiting.ts).
    expect(await apps.get(id)).toEqual({ ...saved, teamWaiting: 1 })
  })

  it('refuses to save a draft that is gone or held by a run; a sent one is edited, a refusal cleared', async () => {
    await expect(saveDraftPayload(db, 'apps', 'nope', {})).rejects.toThrow('This app draft no longer exists.')
    const { id } = await apps.create()
    for (const state of ['queued', 'sending'] as const) {
      await setStanding(db.appDrafts, id, state)
      await expect(saveDraftPayload(db, 'apps', id, { name: 'x' })).rejects.toThrow(
        'is being sent; edit it once its run has ended.',
      )
      expect((await apps.get(id))!.name).toBe('')
    }
    // Held by a run to another destination is held all the same.
    await setStanding(db.appDrafts, id, 'synced')
    await setStanding(db.appDrafts, id, 'queued', 'https://api.example.com')
    await expect(saveDraftPayload(db, 'apps', id, { name: 'x' })).rejects.toThrow('is being sent')

    // Synced: editable, and it stays synced there (what was sent is the run's record).
    await setStanding(db.appDrafts, id, 'rejected', 'https://api.example.com')
    const saved = await saveDraftPayload<AppDraftRecord>(db, 'apps', id, { name: 'x' })
    expect(saved.name).toBe('x')
    expect(stateAt(saved.sync, DEST)).toBe('synced')
    // The refusal is about what was refused: the edit offers it there again.
    expect(stateAt(saved.sync, 'https://api.example.com')).toBe('draft')
    // Stored marked as waiting to be shared, should a team workspace be joined (db/team-waiting.ts).
    expect(await apps.get(id)).toEqual({ ...saved, teamWaiting: 1 })
  })

  it('lists every draft, most recently edited first', async () => {
    const a = await apps.create({ name: 'A' }, 1000)
    const b = await apps.create({ name: 'B' }, 2000)
    await saveDraftPayload(db, 'apps', a.id, { name: 'A2' }, 3000)
    expect((await apps.all()).map((draft) => draft.name)).toEqual(['A2', 'B'])
    expect(b.id).not.toBe(a.id)
  })

  it('duplicates a draft as a new, unsent draft named as a copy', async () => {
    const original = await apps.create({ ...newAppPayload(), name: 'Glow' }, 1000)
    await setStanding(db.appDrafts, original.id, 'synced', DEST, { remoteId: 'app-1' })
    const copy = await apps.duplicate(original.id, 5000)
    expect(copy.id).not.toBe(original.id)
    expect(copy).toMatchObject({
      name: 'Glow (copy)',
      sync: {},
      standing: [],
      createdAt: 5000,
      updatedAt: 5000,
    })
    expect({ ...copy.payload, name: 'Glow' }).toEqual(original.payload)
    // The copy's payload is its own.
    copy.payload.appConfig!.domains!.push('x.example.com')
    expect((await apps.get(original.id))!.payload.appConfig!.domains).toEqual([])
    // An untitled draft's copy stays untitled rather than becoming " (copy)".
    expect((await apps.duplicate((await apps.create()).id)).name).toBe('')
  })

  it('deletes a draft and puts it back exactly, id and timestamps included', async () => {
    const record = await apps.create({ ...newAppPayload(), name: 'Glow' }, 1000)
    const removed = await apps.delete(record.id)
    expect(removed).toEqual(record)
    expect(await apps.get(record.id)).toBeUndefined()
    await apps.restore(removed)
    expect(await apps.get(record.id)).toEqual(record)
    // Restoring never overwrites a draft holding the id.
    await expect(apps.restore(removed)).rejects.toThrow()
  })

  it('deletes an app only tried on the built-in Sandbox', async () => {
    const { id } = await apps.create()
    await setStanding(db.appDrafts, id, 'synced', EMBEDDED_SANDBOX_DESTINATION)
    await apps.delete(id)
    expect(await apps.get(id)).toBeUndefined()
  })

  it('keeps drafts that have been sent', async () => {
    const { id } = await apps.create()
    await setStanding(db.appDrafts, id, 'sending')
    await expect(apps.delete(id)).rejects.toThrow('This app is being sent; it can go once its run has ended.')
    expect(await apps.get(id)).toBeDefined()
    await setStanding(db.appDrafts, id, 'synced')
    await expect(apps.delete(id)).rejects.toThrow(
      'This app has been sent; its record is kept, so it is never created twice.',
    )
    // Sent anywhere, whatever came of it: kept.
    const other = await apps.create()
    await setStanding(db.appDrafts, other.id, 'rejected', 'https://api.example.com')
    await expect(apps.delete(other.id)).rejects.toThrow('This app has been sent')
    await expect(apps.delete('nope')).rejects.toThrow('no longer exists')
  })
})
