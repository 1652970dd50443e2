import { createTextureTranscoder } from '#node/ktx2-transcoder-thread.ts'
import { externalLink } from '../external-link.ts'
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
  // Its thread starts with the first texture, and ends when idle.
  const textures = createTextureTranscoder()
  return {
    getAppInfo: async () => deps.appInfo(),
    openExternal: async (url) => {
      // The contract already allows https only; checked again so no caller can skip it.
      const link = externalLink(url)
      if (link === undefined) throw new Error('openExternal: only https links are opened')
      await deps.openExternal(link)
    },
    loadPreviewAsset: (request) => deps.previewAssets.load(request),
    transcodeTexture: (bytes, model) => textures.transcode(bytes, model),
    writeClipboard: async (text) => deps.writeClipboard(text),
  }
}
