import 'fake-indexeddb/auto'
import { Dexie } from 'dexie'
import { CatalogDatabase } from '#renderer/db/database.ts'
import { SkuDraftRepository } from '#renderer/db/sku-drafts.ts'
import { DexieSyncOutbox } from '#renderer/db/sync-outbox.ts'
import { SyncRunRepository } from '#renderer/db/sync-runs.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import full from '../../fixtures/sku-eyewear-full.json'
import { outboxContract } from '../sync/outbox-contract.ts'

/** The outbox contract (test/unit/sync/outbox-contract.ts) against the app's outbox, over IndexedDB. */

outboxContract('the Dexie outbox over IndexedDB', async (count) => {
  const name = `catalog-desk-contract-${crypto.randomUUID()}`
  const db = new CatalogDatabase(name)
  const drafts = new SkuDraftRepository(db)
  // Drafts d0 to d(count-1), d0 the latest edit: the run queues them in that order.
  for (let i = 0; i < count; i++)
    await drafts.create({ ...structuredClone(full), barcode: `d${i}` } as Sku, 1_000_000 - i)
  const { run } = await new SyncRunRepository(db).enqueue('skus', {
    target: {
      id: 'sandbox',
      name: 'Sandbox',
      url: 'http://127.0.0.1:1',
      destination: EMBEDDED_SANDBOX_DESTINATION,
      batchSize: 2,
      concurrency: 1,
    },
  })
  return {
    outbox: new DexieSyncOutbox(db, run),
    dispose: async () => {
      db.close()
      await Dexie.delete(name)
    },
  }
})
