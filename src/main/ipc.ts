import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import { ipcChannel } from '#shared/ipc.ts'
import { CHANNELS, type Channel } from '#shared/ipc-channels.ts'
import type { Dispatch } from './ipc-dispatch.ts'

/** True if `frameUrl` is the app's own page (see app-page.ts). */
export type IsTrustedSender = (frameUrl: string) => boolean

function assertTrustedSender(event: IpcMainInvokeEvent, channel: Channel, isTrustedSender: IsTrustedSender) {
  const frame = event.senderFrame
  // A null frame has navigated away or gone; a frame with a parent is a subframe, never the app.
  if (!frame || frame.parent !== null || !isTrustedSender(frame.url)) {
    throw new Error(`IPC ${channel}: rejected a call from a frame that is not the app's page`)
  }
}

/**
 * The one place `ipcMain` is used: every contract channel gets a handler that checks the sender
 * is the app's own top-level page, then hands the arguments to `dispatch` (which validates them).
 * Returns a function that removes the handlers again.
 */
export function registerIpc(dispatch: Dispatch, isTrustedSender: IsTrustedSender): () => void {
  for (const channel of CHANNELS) {
    ipcMain.handle(ipcChannel(channel), async (event, ...args: unknown[]) => {
      assertTrustedSender(event, channel, isTrustedSender)
      return dispatch(channel, args)
    })
  }
  return () => {
    for (const channel of CHANNELS) ipcMain.removeHandler(ipcChannel(channel))
  }
}
