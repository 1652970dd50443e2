import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { keepWhenThePageGoes } from '#renderer/adapters/unsaved-edits.ts'
import { saveInterruptedEdits } from '#renderer/stores/interrupted-edits.ts'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import type { Sku } from '#shared/schema/sku.ts'
import type { EditBase } from '#shared/team/draft-exchange.ts'
import full from '../../fixtures/sku-eyewear-full.json'

/**
 * An edit the page went before saving (unsaved-edits.ts): kept in localStorage as the page goes,
 * saved at the next start. The browser test (sku-drafts.spec.ts) reloads in the autosave's pause;
 * these are the cases around it.
 */

let name = ''
let db: CatalogDatabase
let drafts: SkuDraftRepository
const stored = new Map<string, string>()
const listeners = new Map<string, (event: object) => void>()

beforeEach(() => {
  name = `catalog-desk-unsaved-${crypto.randomUUID()}`
  db = new CatalogDatabase(name)
  drafts = new SkuDraftRepository(db)
  stored.clear()
  vi.stubGlobal('localStorage', {
    get length() {
      return stored.size
    },
    key: (index: number) => [...stored.keys()][index] ?? null,
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => void stored.set(key, value),
    removeItem: (key: string) => void stored.delete(key),
  })
  vi.stubGlobal('addEventListener', (type: string, listener: (event: object) => void) =>
    listeners.set(type, listener),
  )
  vi.stubGlobal('removeEventListener', (type: string) => listeners.delete(type))
})

afterEach(async () => {
  vi.unstubAllGlobals()
  db.close()
  await Dexie.delete(name)
})

const sku = (productName: string) => ({ ...structuredClone(full), productName }) as Sku

/** An editor of draft `id` whose page goes with `payload` unsaved. */
function pageGoes(id: string, payload: Sku, based: EditBase) {
  const editor = keepWhenThePageGoes('skus', id, () => ({ payload, based }))
  listeners.get('pagehide')!({ persisted: false })
  editor.stop()
}

describe('edits kept as the page went', () => {
  it('are saved at the next start, at the time they were made, and forgotten', async () => {
    const draft = await drafts.create(sku('Before'), 1_000)
    vi.spyOn(Date, 'now').mockReturnValue(5_000)
    pageGoes(draft.id, sku('Typed last'), { payload: draft.payload, rev: undefined })
    vi.mocked(Date.now).mockReturnValue(9_000)
    expect(await saveInterruptedEdits(db)).toBe(1)
    expect(await drafts.get(draft.id)).toMatchObject({
      payload: { productName: 'Typed last' },
      updatedAt: 5_000,
    })
    expect(stored.size).toBe(0)
    vi.restoreAllMocks()
  })

  it('are forgotten when the page comes back from the back-forward cache', async () => {
    const editor = keepWhenThePageGoes('skus', 'shown', () => ({
      payload: sku('Kept'),
      based: { payload: {}, rev: undefined },
    }))
    listeners.get('pagehide')!({ persisted: true })
    expect(stored.size).toBe(1)
    listeners.get('pageshow')!({ persisted: true })
    expect(stored.size).toBe(0)
    editor.stop()
  })

  it('leave a draft as it is when its save went through as the page went', async () => {
    const draft = await drafts.create(sku('Saved after all'), 1_000)
    pageGoes(draft.id, sku('Saved after all'), { payload: draft.payload, rev: undefined })
    expect(await saveInterruptedEdits(db)).toBe(0)
    expect(await drafts.get(draft.id)).toMatchObject({ updatedAt: 1_000 })
    expect(stored.size).toBe(0)
  })

  it('a damaged entry, or one of a draft since deleted, is dropped without stopping the start', async () => {
    const other = 'catalog-desk:interface-density'
    stored.set(other, 'compact')
    stored.set('catalog-desk:unsaved-edit:skus:x', '{"kind": "skus", "id": "x", "payl')
    stored.set('catalog-desk:unsaved-edit:skus:y', '[]')
    pageGoes('gone', sku('Nobody'), { payload: {}, rev: undefined })
    expect(await saveInterruptedEdits(db)).toBe(0)
    expect([...stored.keys()]).toEqual([other])
  })
})
