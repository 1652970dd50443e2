import { z } from './schema/zod.ts'

/**
 * The one contract between the renderer and the main process. Each invoke channel names the
 * schema of its arguments (checked in main before a handler runs) and the type of its result.
 * The preload builds `window.api` from it; main registers its handler map against it; the browser
 * test harness builds the same `window.api` over a Playwright binding.
 */
export const invokeContract = {
  getAppInfo: { args: z.tuple([]) },
  /** Opens a link in the user's browser; only https links leave the app. */
  openExternal: { args: z.tuple([z.url({ protocol: /^https$/ })]) },
} as const

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

export type Channel = keyof typeof invokeContract
export type ChannelArgs<C extends Channel> = z.input<(typeof invokeContract)[C]['args']>

export type Api = {
  [C in Channel]: (...args: ChannelArgs<C>) => Promise<InvokeResults[C]>
}

export const CHANNELS = Object.keys(invokeContract) as Channel[]

/** The IPC channel name of a contract entry; prefixed so no other code's channel can collide. */
export const ipcChannel = (channel: Channel) => `catalog-desk:${channel}`

export type Invoke = (channel: Channel, args: unknown[]) => Promise<unknown>

/** Builds `window.api` over a transport: `ipcRenderer.invoke` in the app, a binding in tests. */
export function buildApi(invoke: Invoke): Api {
  return Object.fromEntries(
    CHANNELS.map((channel) => [channel, (...args: unknown[]) => invoke(channel, args)]),
  ) as Api
}
