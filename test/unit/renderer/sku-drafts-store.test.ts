import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { effectScope, nextTick, toRef, type EffectScope } from 'vue'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { db, skuDrafts } from '#renderer/db/index.ts'
import { allMatching, including, only } from '#renderer/stores/sku-drafts/selection.ts'
import { useSkuWindow } from '#renderer/features/skus/list/use-sku-window.ts'
import { useSkuDraftsStore } from '#renderer/stores/sku-drafts.ts'

let scope: EffectScope

beforeEach(async () => {
  scope = effectScope()
  setActivePinia(createPinia())
  await db.skuDrafts.clear()
  // The undo history is kept across sessions: each test starts with none.
  await db.skuUndo.clear()
  await db.skuActions.clear()
})

afterEach(() => scope.stop())

/** The store and the list window over it, as the list page wires them. */
async function listed() {
  const store = useSkuDraftsStore()
  const list = scope.run(() => useSkuWindow(() => store.query, toRef(store, 'revision')))!
  const settled = async () => {
    // Let the list's watchers see the change first.
    await nextTick()
    await vi.waitFor(() => expect(list.loading.value).toBe(false))
  }
  await settled()
  const names = () => Array.from({ length: list.total.value }, (_, i) => list.rowAt(i)?.productName)
  return { store, list, settled, names }
}

async function named(...names: string[]): Promise<string[]> {
  const ids: string[] = []
  for (const [i, productName] of names.entries()) {
    ids.push((await skuDrafts.create({ productName, brand: 'Northwind', barcode: `400${i}` }, 1000 + i)).id)
  }
  return ids
}

describe('the SKU drafts store and list window', () => {
  it('creates a new draft that warns about what is left to fill in, and lists it', async () => {
    const { store, list, settled } = await listed()
    const id = await store.create()
    await settled()
    expect(list.total.value).toBe(1)
    expect(list.allCount.value).toBe(1)
    const row = list.rowAt(0)
    expect(row?.id).toBe(id)
    expect(row?.validity).toBe('warnings')
    expect(row?.errorCount).toBe(0)
    expect(row?.payload.arEffect?.effectAssets2D).toEqual([null, null, null, null, null, null, null])
  })

  it('narrows to a search, sorts, and forgets the selection only when the matches change', async () => {
    const [, blue] = await named('Aviator Gold', 'Round Blue', 'Cat Eye Blue')
    const { store, list, settled, names } = await listed()
    expect(names()).toEqual(['Cat Eye Blue', 'Round Blue', 'Aviator Gold'])

    store.selection = only(blue!)
    store.search('blu')
    await settled()
    expect(names()).toEqual(['Cat Eye Blue', 'Round Blue'])
    expect(list.allCount.value).toBe(3)
    expect(store.selection.kind === 'ids' && store.selection.ids.size).toBe(0)

    store.selection = only(blue!)
    store.sortBy('productName')
    await settled()
    expect(names()).toEqual(['Cat Eye Blue', 'Round Blue'])
    expect(store.query.direction).toBe('asc')
    store.sortBy('productName')
    await settled()
    expect(names()).toEqual(['Round Blue', 'Cat Eye Blue'])
    expect(store.selection).toEqual(only(blue!))

    store.filter('validity', 'invalid')
    await settled()
    expect(list.total.value).toBe(0)
    store.clearFilters()
    await settled()
    expect(list.total.value).toBe(3)
  })

  it('sets a field on all matching drafts but the ones left out, and undoes it', async () => {
    const [gold, blue, cat] = await named('Aviator Gold', 'Round Blue', 'Cat Eye Blue')
    const { store, list, settled } = await listed()
    store.search('blue')
    await settled()
    store.selection = including(allMatching(store.plainQuery()), [cat!], false)
    await store.setField('brand', 'Contoso Vision')
    await settled()
    expect((await skuDrafts.get(blue!))?.brand).toBe('Contoso Vision')
    expect((await skuDrafts.get(cat!))?.brand).toBe('Northwind')
    expect((await skuDrafts.get(gold!))?.brand).toBe('Northwind')
    expect(store.notice).toMatchObject({ message: 'Brand set on 1 draft.', undo: expect.any(String) })
    expect(list.rowAt(0)?.brand ?? list.rowAt(1)?.brand).toBeDefined()

    await store.undo()
    expect((await skuDrafts.get(blue!))?.brand).toBe('Northwind')
    expect(store.notice?.message).toBe('1 draft restored.')
  })

  it('refuses a value of the wrong kind and says nothing changed', async () => {
    const [gold] = await named('Aviator Gold')
    const { store } = await listed()
    store.selection = only(gold!)
    await store.setField('isActive', 'yes')
    expect(store.notice).toMatchObject({
      tone: 'error',
      message: 'Nothing was changed: Active must be true or false, not the text "yes"',
    })
  })

  it('duplicates and selects the copies; deletes with an undo that restores them', async () => {
    const [gold, blue] = await named('Aviator Gold', 'Round Blue')
    const { store, list, settled, names } = await listed()
    await store.duplicate([gold!])
    await settled()
    expect(names()).toContain('Aviator Gold (copy)')
    expect(store.notice?.message).toBe(
      '1 draft duplicated; the copy is selected. Copies keep the barcode until you edit it.',
    )
    expect(store.selection.kind === 'ids' && [...store.selection.ids]).toHaveLength(1)

    store.selection = including(only(gold!), [blue!], true)
    await store.remove()
    await settled()
    expect(names()).toEqual(['Aviator Gold (copy)'])
    expect(store.notice?.message).toBe('2 drafts deleted.')
    await store.undo()
    await settled()
    expect(list.total.value).toBe(3)
    expect(store.notice?.message).toBe('2 drafts restored.')
  })

  it('undoes the last action after its notice went and in a new session, and says when there is nothing', async () => {
    const [gold, blue] = await named('Aviator Gold', 'Round Blue')
    const { store } = await listed()
    await store.undo()
    expect(store.notice?.message).toBe('Nothing to undo.')

    store.selection = including(only(gold!), [blue!], true)
    await store.remove()
    store.dismiss()
    // A restart: a fresh store, with only the database to go by.
    setActivePinia(createPinia())
    const again = await listed()
    expect(again.store.notice).toBeUndefined()
    await again.store.undo()
    await again.settled()
    expect(again.store.notice?.message).toBe('2 drafts restored.')
    expect(again.names().sort()).toEqual(['Aviator Gold', 'Round Blue'])
    await again.store.undo()
    expect(again.store.notice?.message).toBe('Nothing to undo.')
  })

  it('walks back through several actions, and the snackbar undoes only its own while it is the newest', async () => {
    const [gold, blue] = await named('Aviator Gold', 'Round Blue')
    const { store, settled, names } = await listed()
    store.selection = only(gold!)
    await store.setField('brand', 'Contoso Vision')
    const setBatch = store.notice?.undo
    await store.duplicate([blue!])
    await store.remove([gold!])
    expect((await store.loadHistory()).map((action) => action.label)).toEqual([
      'Deleted 1 draft',
      'Duplicated 1 draft',
      'Set Brand on 1 draft',
    ])

    // The snackbar of the delete undoes the delete.
    await store.undoNotice()
    expect(store.notice?.message).toBe('1 draft restored.')
    expect(store.history.map((action) => action.label)).toEqual([
      'Duplicated 1 draft',
      'Set Brand on 1 draft',
    ])

    // An older snackbar's Undo would undo from under the duplicate: refused, nothing changes.
    store.tell('Brand set on 1 draft.', 'info', setBatch)
    await store.undoNotice()
    expect(store.notice).toMatchObject({
      tone: 'error',
      message: expect.stringContaining('newer ones came since'),
    })
    await settled()
    expect(names()).toHaveLength(3)

    // Back to the field set from the history: the duplicate goes first, then the brand.
    await store.undoThrough(setBatch!)
    await settled()
    expect(store.notice?.message).toBe('2 actions undone. 1 draft restored. 1 draft they added was removed.')
    expect(names().sort()).toEqual(['Aviator Gold', 'Round Blue'])
    expect((await skuDrafts.get(gold!))?.brand).toBe('Northwind')
    expect(store.history).toEqual([])
    await store.undo()
    expect(store.notice?.message).toBe('Nothing to undo.')
  })

  it('takes the drafts an undo removes out of the selection', async () => {
    const [gold, blue] = await named('Aviator Gold', 'Round Blue', 'Cat Eye Blue')
    const { store, settled } = await listed()
    await store.duplicate([gold!, blue!])
    await settled()
    expect(store.selection.kind === 'ids' && store.selection.ids.size).toBe(2)

    // Ctrl+Z removes the two copies: nothing of them stays selected for a Delete to miss.
    await store.undo()
    await settled()
    expect(store.selection.kind === 'ids' && store.selection.ids.size).toBe(0)
    expect(store.notice?.message).toBe('2 drafts it added were removed.')

    // "All matching" but some: a removed draft it left out no longer counts against it.
    await store.duplicate([gold!])
    await settled()
    const [copy] = store.selection.kind === 'ids' ? [...store.selection.ids] : []
    store.selection = including(allMatching(store.plainQuery()), [copy!], false)
    await store.undo()
    expect(store.selection).toEqual(allMatching(store.plainQuery()))
  })
})
