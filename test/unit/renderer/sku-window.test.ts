import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { effectScope, toRef } from 'vue'
import { describe, expect, it, vi } from 'vitest'
import type { SkuDraftRecord } from '#renderer/db/records.ts'
import type { ListView } from '#renderer/db/sku-list-pages.ts'
import { useSkuWindow } from '#renderer/features/skus/list/use-sku-window.ts'
import { useSkuDraftsStore } from '#renderer/stores/sku-drafts.ts'

describe('the SKU list’s window', () => {
  it('hands over its first rows in a task after the one that opened it, even when they were read ahead (issue #37)', async () => {
    setActivePinia(createPinia())
    const store = useSkuDraftsStore()
    const row = { id: 'aviator', productName: 'Aviator' } as SkuDraftRecord
    // A read ahead of the list (start-checks.ts `openListAhead`): its view and rows are already there.
    const view: ListView = {
      total: 1,
      cached: (position) => (position === 0 ? row : undefined),
      load: () => Promise.resolve(),
      idsBetween: () => Promise.resolve([row.id]),
      allIds: () => Promise.resolve([row.id]),
    }
    vi.spyOn(store, 'openView').mockResolvedValue({ view, all: 1 })
    const scope = effectScope()
    const list = scope.run(() => useSkuWindow(() => store.query, toRef(store, 'revision')))!

    // The page mounts in the task that opened the window, with every promise it settles: drawn
    // there too, the rows made it one task of 50–140 ms. Many more turns than the window takes.
    for (let turn = 0; turn < 50; turn++) await Promise.resolve()
    expect(list.rowAt(0)).toBeUndefined()
    expect(list.loading.value).toBe(true)

    await vi.waitFor(() => expect(list.rowAt(0)).toBe(row))
    expect(list.total.value).toBe(1)
    expect(list.loading.value).toBe(false)
    scope.stop()
  })
})
