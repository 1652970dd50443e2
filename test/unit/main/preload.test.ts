import { beforeAll, describe, expect, it, vi } from 'vitest'
import { CHANNELS } from '#shared/ipc-channels.ts'

const fake = vi.hoisted(() => ({
  exposeInMainWorld: vi.fn<(key: string, api: unknown) => void>(),
  invoke: vi.fn<(channel: string, ...args: unknown[]) => Promise<unknown>>(async () => 'from main'),
}))
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: fake.exposeInMainWorld },
  ipcRenderer: { invoke: fake.invoke },
}))

let api: Record<string, (...args: unknown[]) => Promise<unknown>>

beforeAll(async () => {
  await import('#preload/index.ts')
  expect(fake.exposeInMainWorld).toHaveBeenCalledOnce()
  const [key, exposed] = fake.exposeInMainWorld.mock.calls[0]!
  expect(key).toBe('api')
  api = exposed as typeof api
})

describe('the preload', () => {
  it('exposes one function per contract channel as window.api', () => {
    expect(Object.keys(api).sort()).toEqual([...CHANNELS].sort())
    for (const channel of CHANNELS) expect(typeof api[channel]).toBe('function')
  })

  it("invokes the channel's prefixed IPC name with the arguments and returns main's answer", async () => {
    fake.invoke.mockClear()
    await expect(api.openExternal!('https://example.com/')).resolves.toBe('from main')
    expect(fake.invoke).toHaveBeenCalledExactlyOnceWith('catalog-desk:openExternal', 'https://example.com/')

    fake.invoke.mockClear()
    await api.getAppInfo!()
    expect(fake.invoke).toHaveBeenCalledExactlyOnceWith('catalog-desk:getAppInfo')
  })
})
