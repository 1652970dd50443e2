import type { invokeArguments } from './ipc-arguments.ts'
import type { z } from './schema/zod.ts'

/**
 * The one contract between the renderer and the main process. Each invoke channel has an argument
 * schema (in `ipc-arguments.ts`, checked in main before a handler runs) and a result type (here).
 * The preload builds `window.api` from this file; main registers its handler map against it; the
 * browser test harness builds the same `window.api` over a Playwright binding.
 *
 * This file has no runtime imports, so the sandboxed preload that bundles it stays small.
 */
export const CHANNELS = [
  'getAppInfo',
  /** Opens a link in the user's browser; only https links leave the app. */
  'openExternal',
] as const

export type Channel = (typeof CHANNELS)[number]

export interface AppInfo {
  name: string
  version: string
  /** Versions of the runtime parts, for the About box and bug reports. */
  versions: { electron?: string; chrome?: string; node: string }
  platform: string
}

export interface InvokeResults {
  getAppInfo: AppInfo
  openExternal: void
}

export type ChannelArgs<C extends Channel> = z.input<(typeof invokeArguments)[C]>

export type Api = {
  [C in Channel]: (...args: ChannelArgs<C>) => Promise<InvokeResults[C]>
}

/** The IPC channel name of a contract entry; prefixed so no other code's channel can collide. */
export const ipcChannel = (channel: Channel) => `catalog-desk:${channel}`

export type Invoke = (channel: Channel, args: unknown[]) => Promise<unknown>

/** Builds `window.api` over a transport: `ipcRenderer.invoke` in the app, a binding in tests. */
export function buildApi(invoke: Invoke): Api {
  return Object.fromEntries(
    CHANNELS.map((channel) => [channel, (...args: unknown[]) => invoke(channel, args)]),
  ) as Api
}
