import type { Pinia } from 'pinia'
import type { SyncKind } from '#shared/sync/ports.ts'
import { useAppDraftsStore } from './app-drafts.ts'
import { useSkuDraftsStore } from './sku-drafts.ts'

/**
 * Tells the list (and an open editor) of each kind of draft that its drafts changed in the
 * database behind its back: the team workspace's shares and arrivals, a conflict settled.
 */
export const TELL_DRAFTS_CHANGED: Readonly<Record<SyncKind, (pinia?: Pinia) => unknown>> = {
  skus: (pinia) => useSkuDraftsStore(pinia).changed(),
  apps: (pinia) => useAppDraftsStore(pinia).load(),
}
