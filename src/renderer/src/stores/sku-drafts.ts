import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import { newSkuPayload } from '../../../shared/schema/sku-template.ts'
import { skuDrafts } from '../db/index.ts'
import type { SkuDraftRecord } from '../db/records.ts'

/**
 * The SKU list as the user sees it. Rows live in a shallow ref: the list replaces whole arrays
 * and never needs deep reactivity on thousands of payloads.
 */
export const useSkuDraftsStore = defineStore('skuDrafts', () => {
  const rows = shallowRef<SkuDraftRecord[]>([])
  const total = ref(0)
  const query = ref('')
  const loading = ref(false)

  async function refresh() {
    loading.value = true
    try {
      const [found, count] = await Promise.all([skuDrafts.search(query.value), skuDrafts.count()])
      rows.value = found
      total.value = count
    } finally {
      loading.value = false
    }
  }

  async function search(text: string) {
    query.value = text
    await refresh()
  }

  async function create(): Promise<string> {
    const record = await skuDrafts.create(newSkuPayload())
    await refresh()
    return record.id
  }

  async function remove(id: string) {
    await skuDrafts.delete(id)
    await refresh()
  }

  return { rows, total, query, loading, refresh, search, create, remove }
})
