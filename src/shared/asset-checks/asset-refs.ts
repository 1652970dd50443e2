import { isRecord } from '../is-record.ts'
import { lazily } from '../lazily.ts'
import { z } from '../schema/zod.ts'
import type { AssetKind } from './results.ts'

/**
 * The assets a SKU names, each with the path of the field naming it, in the order of the
 * contract: the product photo, the environment image, the 2D effect assets, the 3D models.
 *
 * What counts as named: a string that is not blank. Anything else (absent, null, a number) names
 * nothing here; whether it is allowed is `validate`'s question, not this one's. A blank address is
 * an empty field, not a broken link.
 *
 * A 2D asset's shape is not documented (service contract: "Shape of a non-null entry of
 * effectAssets2D: not shown"). A slot holding a string names it; a slot holding an object names
 * its `url` when it has one, else each of its own text fields that holds a web address (`src`,
 * `image`, …), one level deep.
 */
export interface AssetRef {
  /** The field path, as validate writes paths (`arEffect.effectAssets2D.3.url`). */
  field: string
  url: string
  kind: AssetKind
}

/** The assets one call to main checks: a draft names a handful; a bulk check asks in steps of this many. */
export const MAX_ASSETS_A_CHECK = 500

/**
 * One asset as main is asked to check it (the channel `checkAssets`, src/shared/ipc-arguments.ts).
 * The page judges with it too: an address main would refuse the call for (not http or https) is
 * said there, so it never sinks the other files of a bulk check. Built on first use (lazily.ts).
 */
export const assetRefSchema = lazily(() =>
  z.object({
    field: z.string().min(1).max(512),
    url: z.url({ protocol: /^https?$/ }).max(2_048),
    kind: z.enum(['model', 'product-image', 'environment-image', '2d-asset']),
  }),
)

const WEB_ADDRESS = /^\s*https?:\/\//i

const named = (value: unknown): value is string => typeof value === 'string' && value.trim() !== ''

export function assetRefs(sku: unknown): AssetRef[] {
  if (!isRecord(sku)) return []
  const refs: AssetRef[] = []
  if (named(sku.productImage))
    refs.push({ field: 'productImage', url: sku.productImage, kind: 'product-image' })
  const effect = isRecord(sku.arEffect) ? sku.arEffect : undefined
  const environment = isRecord(effect?.envSettings) ? effect.envSettings.environmentImage : undefined
  if (named(environment)) {
    refs.push({ field: 'arEffect.envSettings.environmentImage', url: environment, kind: 'environment-image' })
  }
  // Plain loops, and a slot's path made only when it names something: empty slots are the most
  // common (a SKU has seven 2D slots, mostly null), and check-assets reads thousands of SKUs.
  const slots: unknown[] = Array.isArray(effect?.effectAssets2D) ? effect.effectAssets2D : []
  for (let index = 0; index < slots.length; index++) {
    const slot = slots[index]
    if (named(slot)) {
      refs.push({ field: `arEffect.effectAssets2D.${index}`, url: slot, kind: '2d-asset' })
    } else if (isRecord(slot)) {
      const at = `arEffect.effectAssets2D.${index}`
      if (named(slot.url)) {
        refs.push({ field: `${at}.url`, url: slot.url, kind: '2d-asset' })
        continue
      }
      for (const [key, value] of Object.entries(slot)) {
        if (named(value) && WEB_ADDRESS.test(value))
          refs.push({ field: `${at}.${key}`, url: value, kind: '2d-asset' })
      }
    }
  }
  const models: unknown[] = Array.isArray(effect?.effectAssets3D) ? effect.effectAssets3D : []
  for (let index = 0; index < models.length; index++) {
    const model = models[index]
    if (isRecord(model) && named(model.url)) {
      refs.push({ field: `arEffect.effectAssets3D.${index}.url`, url: model.url, kind: 'model' })
    }
  }
  return refs
}

/**
 * Whether a SKU names other files than `named` (or the same in other fields): a check made of
 * `named` no longer describes it.
 */
export function namesOtherFiles(
  sku: unknown,
  named: ReadonlyArray<Pick<AssetRef, 'field' | 'url'>>,
): boolean {
  const now = assetRefs(sku)
  return (
    now.length !== named.length ||
    now.some((ref, at) => ref.field !== named[at]!.field || ref.url !== named[at]!.url)
  )
}
