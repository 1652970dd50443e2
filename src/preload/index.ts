import { contextBridge, ipcRenderer } from 'electron'
import { buildApi, ipcChannel } from '#shared/ipc.ts'

contextBridge.exposeInMainWorld(
  'api',
  buildApi((channel, args) => ipcRenderer.invoke(ipcChannel(channel), ...args)),
)
