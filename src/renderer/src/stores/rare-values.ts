import { defineStore } from 'pinia'
import { computed, shallowRef } from 'vue'
import { RARE_VALUE_FIELDS, rareValuesOf, type RareValue } from '#shared/rare-values.ts'
import { skuValueCounts } from '../db/index.ts'
import { useSkuDraftsStore } from './sku-drafts.ts'

/** Where the values a person said are right ("Keep “eyeware”") are kept, as the list's columns are. */
const KEPT_KEY = 'catalog-desk.rare-values.kept'

const keyOf = (rare: Pick<RareValue, 'field' | 'value'>) => `${rare.field}\n${rare.value}`

function readKept(): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEPT_KEY) ?? '[]')
    return new Set(Array.isArray(stored) ? stored.filter((key) => typeof key === 'string') : [])
  } catch {
    return new Set()
  }
}

/**
 * The SKU list's "Did you mean…?": values held by a handful of drafts that look like typos of one
 * held by many (src/shared/rare-values.ts), counted on the drafts' indexes. Nothing changes by
 * itself: "Change 5 drafts to “eyewear”" is the list's one bulk edit ("Set field", undone in one
 * step from the undo history), and a value the person keeps is not asked about again.
 */
export const useRareValuesStore = defineStore('rareValues', () => {
  const drafts = useSkuDraftsStore()
  const found = shallowRef<RareValue[]>([])
  const kept = shallowRef<ReadonlySet<string>>(readKept())

  /** What the list asks, but the values the person kept. */
  const asked = computed(() => found.value.filter((rare) => !kept.value.has(keyOf(rare))))

  /** Counts the values again (the list calls it when it opens and after every write). */
  async function load(): Promise<void> {
    const counts = await skuValueCounts.counts()
    found.value = RARE_VALUE_FIELDS.flatMap((field) => rareValuesOf(field, counts[field]))
  }

  /** Every draft holding the rare value gets the suggested one: one bulk edit, one undo. */
  async function change(rare: RareValue): Promise<void> {
    const ids = await skuValueCounts.idsWith(rare.field, rare.value)
    await drafts.setField(rare.field, rare.suggestion, { kind: 'ids', ids: new Set(ids) })
  }

  /** The person says the value is right: it is not asked about again on this computer. */
  function keep(rare: RareValue): void {
    const next = new Set(kept.value).add(keyOf(rare))
    kept.value = next
    try {
      localStorage.setItem(KEPT_KEY, JSON.stringify([...next]))
    } catch {
      // Kept for this session only when the page's storage is full or refused.
    }
  }

  return { found, asked, load, change, keep }
})
