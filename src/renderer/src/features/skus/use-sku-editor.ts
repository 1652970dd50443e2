import type { Sku } from '#shared/schema/sku.ts'
import { validateSku } from '#shared/validation/validate.ts'
import type { SkuDraftRecord } from '#renderer/db/records.ts'
import { useSkuDraftsStore } from '#renderer/stores/sku-drafts.ts'
import { useDraftEditor } from '#renderer/composables/use-draft-editor.ts'

/**
 * One SKU draft under edit: the payload as a reactive object, its validation as the user types,
 * autosave to IndexedDB and undo through the saved versions (`useDraftEditor`, shared with apps).
 */
export function useSkuEditor(id: string) {
  return useDraftEditor<Sku, SkuDraftRecord>('skus', id, useSkuDraftsStore(), validateSku)
}
