import type { AppInfo, Channel, InvokeResults } from '../shared/ipc.ts'
import type { invokeArguments } from '../shared/ipc-arguments.ts'
import type { z } from '../shared/schema/zod.ts'
import { isExternalLink } from './external-link.ts'
import type { PreviewAssetLoader } from './preview-assets.ts'
import { createServiceHandlers, type ServiceDeps } from './service-handlers.ts'
import { createSyncHandlers } from './sync-handlers.ts'

/** What a handler receives: the arguments after the contract's schema has parsed them. */
export type HandlerArgs<C extends Channel> = z.output<(typeof invokeArguments)[C]>

/** One async function per contract channel; a channel without a handler does not compile. */
export type Handlers = { [C in Channel]: (...args: HandlerArgs<C>) => Promise<InvokeResults[C]> }

/** What the handlers need from the outside world, injected so they run without Electron. */
export interface HandlerDeps extends ServiceDeps {
  appInfo(): AppInfo
  openExternal(url: string): Promise<void>
  previewAssets: PreviewAssetLoader
  writeClipboard(text: string): void
}

export function createHandlers(deps: HandlerDeps): Handlers {
  return {
    ...createServiceHandlers(deps),
    ...createSyncHandlers(deps),
    getAppInfo: async () => deps.appInfo(),
    openExternal: async (url) => {
      // The contract already allows https only; checked again so no caller can skip it.
      if (!isExternalLink(url)) throw new Error('openExternal: only https links are opened')
      await deps.openExternal(url)
    },
    loadPreviewAsset: (request) => deps.previewAssets.load(request),
    writeClipboard: async (text) => deps.writeClipboard(text),
  }
}
