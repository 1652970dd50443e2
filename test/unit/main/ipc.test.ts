import type { IpcMainInvokeEvent } from 'electron'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createHandlers } from '#main/handlers/index.ts'
import { serviceDeps } from './service-deps.ts'
import { registerIpc } from '#main/ipc.ts'
import { createDispatcher, type Dispatch } from '#main/ipc-dispatch.ts'
import { ipcChannel } from '#shared/ipc.ts'
import { CHANNELS } from '#shared/ipc-channels.ts'

type InvokeListener = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>

const fakeIpc = vi.hoisted(() => ({
  handle: vi.fn<(channel: string, listener: InvokeListener) => void>(),
  removeHandler: vi.fn<(channel: string) => void>(),
}))
vi.mock('electron', () => ({ ipcMain: fakeIpc }))

const APP_URL = 'file:///opt/catalog-desk/out/renderer/index.html'
const isTrustedSender = vi.fn((url: string) => url.split('#')[0] === APP_URL)

function eventFrom(senderFrame: { url: string; parent: object | null } | null): IpcMainInvokeEvent {
  return { senderFrame } as unknown as IpcMainInvokeEvent
}
const appFrame = eventFrom({ url: `${APP_URL}#/skus`, parent: null })

function listenerFor(channel: string): InvokeListener {
  const calls = fakeIpc.handle.mock.calls.filter(([name]) => name === channel)
  expect(calls).toHaveLength(1)
  return calls[0]![1]
}

beforeEach(() => {
  fakeIpc.handle.mockClear()
  fakeIpc.removeHandler.mockClear()
  isTrustedSender.mockClear()
})

describe('registerIpc', () => {
  it('registers exactly one handler per contract channel, and removes them again', () => {
    const dispose = registerIpc(vi.fn<Dispatch>(), isTrustedSender)
    const registered = fakeIpc.handle.mock.calls.map(([channel]) => channel)
    expect(registered).toHaveLength(CHANNELS.length)
    expect(registered.sort()).toEqual(CHANNELS.map(ipcChannel).sort())

    dispose()
    expect(fakeIpc.removeHandler.mock.calls.map(([channel]) => channel).sort()).toEqual(registered)
  })

  it('hands a call from the app page to the dispatcher and returns its answer', async () => {
    const dispatch = vi.fn<Dispatch>(async () => 'answer')
    registerIpc(dispatch, isTrustedSender)
    await expect(listenerFor('catalog-desk:openExternal')(appFrame, 'https://example.com/')).resolves.toBe(
      'answer',
    )
    expect(isTrustedSender).toHaveBeenCalledWith(`${APP_URL}#/skus`)
    expect(dispatch).toHaveBeenCalledExactlyOnceWith('openExternal', ['https://example.com/'])
  })

  it.each([
    ['another page', eventFrom({ url: 'https://evil.example/', parent: null })],
    ['a subframe of the app page', eventFrom({ url: APP_URL, parent: { url: APP_URL } })],
    ['a frame that is gone', eventFrom(null)],
  ])('rejects a call from %s without calling the dispatcher', async (_name, event) => {
    const dispatch = vi.fn<Dispatch>(async () => 'answer')
    registerIpc(dispatch, isTrustedSender)
    for (const channel of CHANNELS) {
      await expect(listenerFor(ipcChannel(channel))(event, 'https://example.com/')).rejects.toThrow(
        `IPC ${channel}: rejected a call from a frame that is not the app's page`,
      )
    }
    expect(dispatch).not.toHaveBeenCalled()
  })
})

describe('registerIpc with the real dispatcher and handlers', () => {
  function setup() {
    const openExternal = vi.fn(async (_url: string) => {})
    const appInfo = vi.fn(() => ({
      name: 'Catalog Desk',
      version: '1.0.0',
      versions: { node: '22' },
      platform: 'linux',
    }))
    registerIpc(
      createDispatcher(createHandlers({ ...serviceDeps(), appInfo, openExternal })),
      isTrustedSender,
    )
    return { openExternal, appInfo }
  }

  it('lets a valid call reach the handler', async () => {
    const { openExternal, appInfo } = setup()
    await listenerFor('catalog-desk:openExternal')(appFrame, 'https://example.com/help')
    expect(openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/help')
    await expect(listenerFor('catalog-desk:getAppInfo')(appFrame)).resolves.toMatchObject({
      version: '1.0.0',
    })
    expect(appInfo).toHaveBeenCalledOnce()
  })

  it('rejects invalid arguments with a message naming the channel, before the handler runs', async () => {
    const { openExternal } = setup()
    await expect(listenerFor('catalog-desk:openExternal')(appFrame, 'file:///etc/passwd')).rejects.toThrow(
      /^IPC openExternal: invalid arguments/,
    )
    await expect(listenerFor('catalog-desk:openExternal')(appFrame)).rejects.toThrow(
      /^IPC openExternal: invalid arguments/,
    )
    expect(openExternal).not.toHaveBeenCalled()
  })

  it('rejects an untrusted sender before looking at the arguments', async () => {
    const { openExternal } = setup()
    const evil = eventFrom({ url: 'https://evil.example/', parent: null })
    await expect(listenerFor('catalog-desk:openExternal')(evil, 'https://example.com/')).rejects.toThrow(
      /not the app's page/,
    )
    expect(openExternal).not.toHaveBeenCalled()
  })
})
