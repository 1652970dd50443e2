import type { AssetRef } from '#shared/asset-checks/asset-refs.ts'
import type { AssetCheck } from '#shared/asset-checks/results.ts'

/** The files a draft names, checked by main (fetched through its guard, read, judged). */
export function checkAssets(refs: AssetRef[]): Promise<AssetCheck[]> {
  return window.api.checkAssets(refs)
}
