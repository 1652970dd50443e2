import type { Page } from '@playwright/test'
import { draftColumns } from '#shared/draft-columns.ts'
import type { Sku } from '#shared/schema/sku.ts'

/** Where a stored draft stands at one destination, as the app keeps it (`sync`). */
export interface StoredStanding {
  state: string
  run: string
  position: number
  at: number
  remoteId?: string
  remoteCreatedAt?: number
  response?: Record<string, unknown>
}

/**
 * The destination of the embedded sandbox, and of any profile pointed at its address (the tests'
 * "local" profiles are): where the tests' drafts are sent.
 */
export const SANDBOX_DESTINATION = 'embedded-sandbox'

/** A stored draft's standing at a destination (the sandbox unless named), read from its `sync`. */
export function standingOf(
  draft: Record<string, unknown>,
  destination = SANDBOX_DESTINATION,
): StoredStanding | undefined {
  return (draft.sync as Record<string, StoredStanding> | undefined)?.[destination]
}

/** A stored draft's state at a destination: 'draft' when never sent there. */
export function stateOf(draft: Record<string, unknown>, destination = SANDBOX_DESTINATION): string {
  return standingOf(draft, destination)?.state ?? 'draft'
}

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

/** How many SKU drafts the page's IndexedDB holds (cheap enough to poll while a write goes on). */
export async function storedDraftCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const idb = (globalThis as unknown as { indexedDB: IdbFactory }).indexedDB
        const open = idb.open('catalog-desk')
        open.onerror = () => reject(new Error('cannot open catalog-desk'))
        open.onsuccess = () => {
          const counting = open.result.transaction('skuDrafts').objectStore('skuDrafts').count()
          counting.onsuccess = () => {
            open.result.close()
            resolve(counting.result)
          }
        }
      }),
  )
}

/**
 * Stops the page's writes to the drafts from committing, from now until the page goes (or
 * `releaseDraftWrites`), and returns how many drafts are stored. It holds a read-write transaction
 * on the store open (IndexedDB runs the app's later writes to it only after this one, whichever
 * thread makes them), so a test can act in the middle of a long write however fast or slow the
 * machine is.
 */
export async function holdDraftWrites(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const g = globalThis as unknown as { indexedDB: IdbFactory; __draftWritesHeld?: boolean }
        g.__draftWritesHeld = true
        const open = g.indexedDB.open('catalog-desk')
        open.onerror = () => reject(new Error('cannot open catalog-desk'))
        open.onsuccess = () => {
          const store = open.result.transaction('skuDrafts', 'readwrite').objectStore('skuDrafts')
          // A transaction with a request pending stays open: keep asking until released or the
          // page goes. The first answer is the one returned (a promise settles once).
          const ask = (): void => {
            if (!g.__draftWritesHeld) return
            const counting = store.count()
            counting.onsuccess = () => {
              resolve(counting.result)
              ask()
            }
          }
          ask()
        }
      }),
  )
}

/** Lets the writes `holdDraftWrites` held commit: its transaction ends with its last question. */
export async function releaseDraftWrites(page: Page): Promise<void> {
  await page.evaluate(() => {
    ;(globalThis as unknown as { __draftWritesHeld?: boolean }).__draftWritesHeld = false
  })
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
    transaction(
      store: string,
      mode?: 'readwrite',
    ): {
      objectStore(store: string): {
        getAll(): IdbRequest<unknown[]>
        count(): IdbRequest<number>
        put(value: unknown): void
      }
      oncomplete: (() => void) | null
      onerror: (() => void) | null
      error: unknown
    }
  }>
}

/**
 * Stores SKU drafts as the app stores a new one (its derived columns computed here by the app's
 * `draftColumns`, never sent anywhere), with the raw IndexedDB API: drafts a tryout's hands would
 * have made, written without going through what the test is about. Reload the page afterwards.
 */
export async function putDrafts(page: Page, payloads: readonly Record<string, unknown>[]): Promise<string[]> {
  const now = Date.now()
  const records = payloads.map((payload, i) => ({
    id: crypto.randomUUID(),
    payload,
    createdAt: now + i,
    updatedAt: now + i,
    ...draftColumns(payload as Sku),
    sync: {},
    standing: [],
    // Never shared: waiting to be shared should a team workspace be joined (db/team-waiting.ts).
    teamWaiting: 1,
  }))
  await page.evaluate(
    (rows) =>
      new Promise<void>((resolve, reject) => {
        const idb = (globalThis as unknown as { indexedDB: IdbFactory }).indexedDB
        const open = idb.open('catalog-desk')
        open.onerror = () => reject(new Error('cannot open catalog-desk'))
        open.onsuccess = () => {
          const tx = open.result.transaction('skuDrafts', 'readwrite')
          for (const row of rows) tx.objectStore('skuDrafts').put(row)
          tx.oncomplete = () => {
            open.result.close()
            resolve()
          }
          tx.onerror = () => reject(new Error(String(tx.error)))
        }
      }),
    records,
  )
  return records.map((record) => record.id)
}
