import type { PreviewAsset, PreviewAssetRequest } from '../shared/ipc.ts'

/** Loads what the AR preview shows: bundled samples from `resources/`, or assets from the web. */
export interface PreviewAssetLoader {
  load(request: PreviewAssetRequest): Promise<PreviewAsset>
}
