import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openJournal, type RunItem } from '#cli/push/journal-outbox.ts'
import { createMemoryOutbox } from './memory-outbox.ts'
import { outboxContract } from './outbox-contract.ts'
import { skuItems } from './engine-harness.ts'

/**
 * The one contract (outbox-contract.ts) against the memory outbox and the CLI's journal; the Dexie
 * outbox runs it in test/unit/renderer/sync-outbox-contract.test.ts (the page's type checking).
 */

outboxContract('the memory outbox', async (count) => {
  const outbox = createMemoryOutbox(skuItems(count))
  return { outbox, dispose: async () => {} }
})

outboxContract('the journal outbox on a file', async (count) => {
  const dir = await mkdtemp(join(tmpdir(), 'catalog-desk-contract-'))
  const options = { path: join(dir, 'push.journal'), baseUrl: 'http://127.0.0.1:4010', kind: 'skus' as const }
  const items: RunItem[] = Array.from({ length: count }, (_, index) => ({
    key: `J-${index}`,
    index,
    label: `J-${index}`,
  }))
  const payloadOf = (item: Pick<RunItem, 'index'>) => ({ barcode: `J-${item.index}`, brand: 'B' })
  const journal = await openJournal(options)
  return {
    outbox: journal.outbox({
      action: 'create',
      items,
      send: payloadOf,
      stands: (item) => ({ payload: payloadOf(item), fingerprint: `f${item.index}` }),
    }),
    dispose: async () => {
      await journal.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
})
