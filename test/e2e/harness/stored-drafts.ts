import type { Page } from '@playwright/test'

/** A SKU draft as the app stored it (its payload and the derived columns). */
export type StoredDraft = Record<string, unknown> & {
  id: string
  payload: Record<string, unknown>
  productName: string
  barcode: string
  validity: string
}

/**
 * Every SKU draft in the page's IndexedDB, sorted by id, read with the raw IndexedDB API rather
 * than the app's own code: what a test asserts about storage does not depend on what it tests.
 */
export async function storedDrafts(page: Page): Promise<StoredDraft[]> {
  const drafts = await page.evaluate(
    () =>
      new Promise<unknown[]>((resolve, reject) => {
        const idb = (globalThis as unknown as { indexedDB: IdbFactory }).indexedDB
        const open = idb.open('catalog-desk')
        open.onerror = () => reject(new Error('cannot open catalog-desk'))
        open.onsuccess = () => {
          const request = open.result.transaction('skuDrafts').objectStore('skuDrafts').getAll()
          request.onsuccess = () => {
            open.result.close()
            resolve(request.result)
          }
        }
      }),
  )
  return (drafts as StoredDraft[]).sort((a, b) => a.id.localeCompare(b.id))
}

// The test programme compiles without the DOM library: the little of IndexedDB used above, by hand.
interface IdbRequest<T> {
  result: T
  onsuccess: (() => void) | null
  onerror: (() => void) | null
}
interface IdbFactory {
  open(name: string): IdbRequest<{
    close(): void
    transaction(store: string): { objectStore(store: string): { getAll(): IdbRequest<unknown[]> } }
  }>
}
