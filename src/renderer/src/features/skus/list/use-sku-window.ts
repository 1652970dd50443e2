import { computed, ref, shallowRef, watch, type Ref } from 'vue'
import type { SkuDraftRecord } from '#renderer/db/records.ts'
import type { ListQuery } from '#renderer/db/sku-list-query.ts'
import type { ListView } from '#renderer/db/sku-list-pages.ts'
import { useSkuDraftsStore } from '#renderer/stores/sku-drafts.ts'
import { messageOf } from '#shared/error-message.ts'
import { nextTask } from '#renderer/next-task.ts'

/**
 * The SKU list's data, a window at a time: how many drafts match, and the rows near what is on
 * screen. Rows stay plain objects inside the view (never made reactive); `version` tells Vue when
 * more of them have arrived.
 */
export function useSkuWindow(query: () => ListQuery, revision: Ref<number>) {
  const store = useSkuDraftsStore()
  const view = shallowRef<ListView>()
  const version = ref(0)
  const allCount = ref(0)
  const loading = ref(true)
  const failure = ref('')
  let wanted = { first: 0, last: 40 }
  let ticket = 0

  const fail = (error: unknown) => {
    failure.value = `The drafts could not be read: ${messageOf(error)}`
  }

  /**
   * Opens the query afresh and swaps it in once the rows on screen are read, so the old rows stay
   * up meanwhile (no flash of empty rows while typing a search).
   */
  async function open(fromTop: boolean) {
    const mine = ++ticket
    loading.value = true
    if (fromTop) wanted = { first: 0, last: wanted.last - wanted.first }
    try {
      // Without a search or filter the view's own count is the count of all drafts.
      const { view: next, all } = await store.openView(query())
      await next.load(wanted.first, wanted.last)
      // The rows are drawn in a task of their own. The first page's, read ahead as the window
      // opened, are there before the page has mounted: drawn with it, page and rows were one task
      // of 50–140 ms, and one frame of 30–60 ms (issue #37). With none, the page shows at once.
      if (next.total > 0) await nextTask()
      if (mine !== ticket) return
      view.value = next
      allCount.value = all ?? next.total
      failure.value = ''
      version.value++
      // The screen may have moved while this was read.
      show(wanted.first, wanted.last)
    } catch (error) {
      if (mine === ticket) fail(error)
    } finally {
      if (mine === ticket) loading.value = false
    }
  }

  /** Positions first..last are on screen (with some margin): read what is missing of them. */
  function show(first: number, last: number) {
    wanted = { first, last }
    const current = view.value
    if (!current) return
    current.load(first, last).then(() => {
      if (current === view.value) version.value++
    }, fail)
  }

  function rowAt(position: number): SkuDraftRecord | undefined {
    void version.value
    return view.value?.cached(position)
  }

  watch(query, () => void open(true))
  watch(revision, () => void open(false))
  void open(false)

  return {
    view,
    total: computed(() => view.value?.total ?? 0),
    allCount,
    loading,
    failure,
    version,
    rowAt,
    show,
  }
}

export type SkuWindow = ReturnType<typeof useSkuWindow>
