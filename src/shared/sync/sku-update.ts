import { diffJson, type JsonChange } from '../json-diff.ts'
import { isRecord } from '../is-record.ts'
import { contentText } from '../payload-fingerprint.ts'

/**
 * What a SKU's update sends: the fields that changed since what stands on the platform, as the
 * partial body of `PUT …/v2.0/skus/{skuId}` (the live service's public docs: "only the provided
 * fields are modified"). Decided here, once, for the app and the CLI:
 *
 * - An object is sent as the keys that changed inside it, however deep (`arEffect.transform.position.y`
 *   alone is `{"arEffect": {"transform": {"position": {"y": …}}}}`), as the docs' own update example
 *   sends `envSettings` with two of its keys.
 * - A list (`effectAssets2D`, `effectAssets3D`, anything else) is sent whole when anything in it
 *   changed: a partial update has no way to say "the third item".
 * - A changed `category` carries the whole `arEffect`: the docs say a category change needs an
 *   `arEffect` that fits the new category.
 * - A field the draft no longer has stays on the platform: a partial update cannot remove it. Those
 *   are `kept`, for the pre-flight to say.
 * - With nothing to compare with (`base` undefined: sent by a version that kept no payload, or an
 *   earlier update whose outcome nobody knows), the whole SKU is sent: every field it has.
 */
export interface SkuUpdatePlan {
  /** The body: the changed fields, or the whole SKU when `whole`. */
  fields: Record<string, unknown>
  /** What changed, leaf by leaf, for the pre-flight (empty when `whole`: nothing to compare with). */
  changes: JsonChange[]
  /** Paths the draft no longer has: they stay on the platform as they are. */
  kept: string[]
  /** No base to compare with: the whole SKU is sent. */
  whole: boolean
}

export function skuUpdatePlan(base: unknown, current: Record<string, unknown>): SkuUpdatePlan {
  if (!isRecord(base)) return { fields: { ...current }, changes: [], kept: [], whole: true }
  const fields = changedFields(base, current)
  if (
    current.category !== base.category &&
    Object.hasOwn(current, 'category') &&
    current.arEffect !== undefined
  )
    fields.arEffect = current.arEffect
  const changes = diffJson(base, current)
  const kept = changes.filter((change) => change.kind === 'removed').map((change) => change.path)
  return { fields, changes, kept, whole: false }
}

/** Whether an update has anything to send. */
export function hasUpdate(plan: SkuUpdatePlan): boolean {
  return Object.keys(plan.fields).length > 0
}

function same(a: unknown, b: unknown): boolean {
  return contentText(a, 'exact') === contentText(b, 'exact')
}

/** The members of `current` that differ from `base`: objects key by key, anything else whole. */
function changedFields(
  base: Record<string, unknown>,
  current: Record<string, unknown>,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(current)) {
    if (value === undefined) continue
    const before = base[key]
    if (Object.hasOwn(base, key) && same(before, value)) continue
    if (isRecord(before) && isRecord(value)) {
      const inner = changedFields(before, value)
      if (Object.keys(inner).length > 0) fields[key] = inner
    } else fields[key] = value
  }
  return fields
}
