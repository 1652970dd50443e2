import type { Page } from '@playwright/test'
import { saved } from './editor-page.ts'

/** An app draft as the app stored it, read with the raw IndexedDB API (not the app's own code). */
export interface StoredApp extends Record<string, unknown> {
  id: string
  name: string
  validity: string
  /** Where it stands with each destination (see `stateOf` and `standingOf`). */
  sync: Record<string, unknown>
  payload: Record<string, unknown>
}

// The test programme compiles without the DOM library: the little of IndexedDB used here, by hand.
interface IdbRequest<T> {
  result: T
  onsuccess: (() => void) | null
  onerror: (() => void) | null
}
interface IdbStore {
  getAll(): IdbRequest<unknown[]>
  get(key: string): IdbRequest<Record<string, unknown>>
  put(value: unknown): IdbRequest<unknown>
}
interface Idb {
  open(name: string): IdbRequest<{
    close(): void
    transaction(
      store: string,
      mode?: string,
    ): { objectStore(name: string): IdbStore; oncomplete: (() => void) | null }
  }>
}

/** The "App name" input (it says " · not filled" while empty). */
export const appNameBox = (page: Page) => page.getByRole('textbox', { name: /^App name( · not filled)?$/ })

/** Creates an app draft from the list with this name, waits until it is saved, and returns its id. */
export async function namedApp(page: Page, name: string): Promise<string> {
  await page.goto('/#/apps')
  await page.getByRole('button', { name: 'New app' }).click()
  await appNameBox(page).fill(name)
  await saved(page)
  return /#\/apps\/(.+)$/.exec(page.url())![1]!
}

/** Every app draft in the page's IndexedDB. */
export async function storedApps(page: Page): Promise<StoredApp[]> {
  return page.evaluate(
    () =>
      new Promise<StoredApp[]>((resolve, reject) => {
        const open = (globalThis as unknown as { indexedDB: Idb }).indexedDB.open('catalog-desk')
        open.onerror = () => reject(new Error('cannot open catalog-desk'))
        open.onsuccess = () => {
          const request = open.result.transaction('appDrafts').objectStore('appDrafts').getAll()
          request.onsuccess = () => {
            open.result.close()
            resolve(request.result as StoredApp[])
          }
        }
      }),
  )
}

/** Changes stored fields of one app draft directly (a state only sync could set, say). */
export async function patchStoredApp(page: Page, id: string, patch: Record<string, unknown>): Promise<void> {
  await page.evaluate(
    ({ id, patch }) =>
      new Promise<void>((resolve, reject) => {
        const open = (globalThis as unknown as { indexedDB: Idb }).indexedDB.open('catalog-desk')
        open.onerror = () => reject(new Error('cannot open catalog-desk'))
        open.onsuccess = () => {
          const transaction = open.result.transaction('appDrafts', 'readwrite')
          const store = transaction.objectStore('appDrafts')
          const read = store.get(id)
          read.onsuccess = () => store.put({ ...read.result, ...patch })
          // Resolved once committed, so whatever the test does next sees the change.
          transaction.oncomplete = () => {
            open.result.close()
            resolve()
          }
        }
      }),
    { id, patch },
  )
}
