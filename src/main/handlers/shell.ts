import { transcodeKtx2 } from '#node/ktx2-transcoder.ts'
import { isExternalLink } from '../external-link.ts'
import type { HandlerDeps, Handlers } from './types.ts'

type ShellHandlers = Pick<
  Handlers,
  'getAppInfo' | 'openExternal' | 'loadPreviewAsset' | 'transcodeTexture' | 'writeClipboard'
>

/**
 * What the page asks of the desktop around it: the app's facts, links, preview files (and their
 * KTX2 textures as pixels), the clipboard.
 */
export function createShellHandlers(deps: HandlerDeps): ShellHandlers {
  return {
    getAppInfo: async () => deps.appInfo(),
    openExternal: async (url) => {
      // The contract already allows https only; checked again so no caller can skip it.
      if (!isExternalLink(url)) throw new Error('openExternal: only https links are opened')
      await deps.openExternal(url)
    },
    loadPreviewAsset: (request) => deps.previewAssets.load(request),
    transcodeTexture: (bytes) => transcodeKtx2(bytes),
    writeClipboard: async (text) => deps.writeClipboard(text),
  }
}
