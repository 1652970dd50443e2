import { shallowRef } from 'vue'
import { useRouter } from 'vue-router'
import { useAssetChecksStore } from '#renderer/stores/asset-checks.ts'
import type { useSkuDraftsStore } from '#renderer/stores/sku-drafts.ts'
import { assetTallyText } from '#renderer/words/asset-checks.ts'
import { drafts } from '#renderer/words/counting.ts'
import { messageOf } from '#shared/error-message.ts'
import type { ListSelection } from './use-list-selection.ts'

/**
 * What the list does with the chosen drafts, the selection's (the bulk bar) or the search and
 * filters' (the page's lede): takes them to the Sync page, checks their assets, or tries them on
 * (the contact sheet's drafts and what it says they are).
 */
export function useChosenDrafts(store: ReturnType<typeof useSkuDraftsStore>, picker: ListSelection) {
  const assets = useAssetChecksStore()
  const router = useRouter()

  /**
   * Takes the chosen drafts to the Sync page, where the next run sends those of them that are
   * ready. The sync store is loaded and built here, not as the list mounts: the list's start does
   * neither (issue #37).
   */
  async function syncChosen(ids: string[], description: string) {
    const { useSyncStore } = await import('#renderer/stores/sync.ts')
    await useSyncStore().choose({ ids, description })
    await router.push('/sync')
  }

  /** Checks the assets of the chosen drafts, then says what was found (the list reads again). */
  async function checkChosen(ids: string[]) {
    if (assets.progress || ids.length === 0) return
    try {
      const tally = await assets.checkDrafts(ids)
      store.tell(assetTallyText(tally, ids.length))
    } catch (error) {
      store.tell(
        `The assets could not be checked: ${messageOf(error)} The drafts checked by then keep their check.`,
        'error',
      )
    } finally {
      store.changed()
    }
  }

  /** "Try on": the contact sheet of the selection, or else of the drafts the search and filters match. */
  const tryingOn = shallowRef<{ ids: string[]; scope: string }>()

  async function openTryOn() {
    const selected = picker.count.value > 0
    const ids = selected ? await store.selectedIds() : await store.matchingIds()
    const scope = selected
      ? `The ${drafts(ids.length)} selected.`
      : `The ${drafts(ids.length)} matching the search and filters.`
    tryingOn.value = { ids, scope }
  }

  return {
    syncSelected: async () => syncChosen(await store.selectedIds(), 'selected in the list'),
    syncMatching: async () => syncChosen(await store.matchingIds(), 'matching the search and filters'),
    checkSelected: async () => checkChosen(await store.selectedIds()),
    checkMatching: async () => checkChosen(await store.matchingIds()),
    tryingOn,
    openTryOn,
  }
}
