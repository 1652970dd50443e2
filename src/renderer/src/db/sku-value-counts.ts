import { MAX_DISTINCT, RARE_VALUE_FIELDS, type RareValueField, type ValueCount } from '#shared/rare-values.ts'
import type { CatalogDatabase } from './database.ts'

/**
 * How many drafts hold each value of the fields asked about for typos (src/shared/rare-values.ts):
 * category, sub-category, brand and status are columns of `skuDrafts` with an index each, so the
 * values are read as the index's distinct keys and each counted on it, without reading a draft.
 * 100,000 drafts of a few dozen categories cost a few dozen counts.
 */
export class SkuValueCounts {
  private readonly db: CatalogDatabase

  constructor(db: CatalogDatabase) {
    this.db = db
  }

  /** Each field's values with their counts, empty for a field of more than `MAX_DISTINCT` values. */
  counts(): Promise<Record<RareValueField, ValueCount[]>> {
    const table = this.db.skuDrafts
    return this.db.transaction('r', table, async () => {
      const byField = await Promise.all(
        RARE_VALUE_FIELDS.map(async (field): Promise<ValueCount[]> => {
          const values = (await table.orderBy(field).uniqueKeys()).filter(
            (key): key is string => typeof key === 'string' && key.trim() !== '',
          )
          // Free text, not a list: not asked about, so not counted either.
          if (values.length > MAX_DISTINCT) return []
          return Promise.all(
            values.map(async (value) => ({ value, count: await table.where(field).equals(value).count() })),
          )
        }),
      )
      return Object.fromEntries(RARE_VALUE_FIELDS.map((field, at) => [field, byField[at]!])) as Record<
        RareValueField,
        ValueCount[]
      >
    })
  }

  /** The drafts whose `field` is `value`, exactly. */
  idsWith(field: RareValueField, value: string): Promise<string[]> {
    return this.db.skuDrafts.where(field).equals(value).primaryKeys()
  }
}
