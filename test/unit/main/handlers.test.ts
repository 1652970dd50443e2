import { describe, expect, it, vi } from 'vitest'
import { createHandlers } from '#main/handlers/index.ts'
import type { HandlerDeps, Handlers } from '#main/handlers/types.ts'
import { createDispatcher } from '#main/ipc-dispatch.ts'
import { type AppInfo } from '#shared/ipc.ts'
import { CHANNELS } from '#shared/ipc-channels.ts'
import { serviceDeps } from './service-deps.ts'

const info: AppInfo = {
  name: 'Catalog Desk',
  version: '1.2.3',
  versions: { electron: '45.0.0', chrome: '140.0.0', node: '22.0.0' },
  platform: 'linux',
}

function setup() {
  const deps = {
    ...serviceDeps(),
    appInfo: vi.fn<HandlerDeps['appInfo']>(() => info),
    openExternal: vi.fn<HandlerDeps['openExternal']>(async () => {}),
  }
  const handlers = createHandlers(deps)
  return { deps, handlers, dispatch: createDispatcher(handlers) }
}

describe('createHandlers', () => {
  it('has a handler for every contract channel and nothing else', () => {
    const { handlers } = setup()
    expect(Object.keys(handlers).sort()).toEqual([...CHANNELS].sort())
    for (const channel of CHANNELS) expect(typeof handlers[channel]).toBe('function')
  })

  it('answers getAppInfo from the injected app info', async () => {
    const { handlers } = setup()
    await expect(handlers.getAppInfo()).resolves.toEqual(info)
  })

  it('passes https links on to openExternal', async () => {
    const { deps, handlers } = setup()
    await handlers.openExternal('https://example.com/docs')
    expect(deps.openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/docs')
  })

  it.each(['http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url'])(
    'refuses %s even when called directly, without the dispatcher',
    async (url) => {
      const { deps, handlers } = setup()
      await expect(handlers.openExternal(url)).rejects.toThrow(/only https/)
      expect(deps.openExternal).not.toHaveBeenCalled()
    },
  )

  it('is typed so that a missing channel does not compile', () => {
    // @ts-expect-error openExternal is missing
    const incomplete: Handlers = { getAppInfo: async () => info }
    expect(Object.keys(incomplete)).toEqual(['getAppInfo'])
  })
})

describe('createDispatcher', () => {
  it('calls the handler of a valid call and returns its result', async () => {
    const { deps, dispatch } = setup()
    await expect(dispatch('getAppInfo', [])).resolves.toEqual(info)
    await expect(dispatch('openExternal', ['https://example.com/'])).resolves.toBeUndefined()
    expect(deps.openExternal).toHaveBeenCalledExactlyOnceWith('https://example.com/')
  })

  it.each(['nope', 'toString', 'constructor', '__proto__', 'hasOwnProperty'])(
    'rejects the unknown channel %s',
    async (channel) => {
      const { dispatch } = setup()
      await expect(dispatch(channel, [])).rejects.toThrow(`IPC: unknown channel "${channel}"`)
    },
  )

  it('rejects invalid arguments with a message naming the channel and the argument', async () => {
    const { deps, dispatch } = setup()
    await expect(dispatch('openExternal', ['http://example.com/'])).rejects.toThrow(
      /^IPC openExternal: invalid arguments: argument 1: /,
    )
    await expect(dispatch('openExternal', [42])).rejects.toThrow(
      /^IPC openExternal: invalid arguments: argument 1/,
    )
    expect(deps.openExternal).not.toHaveBeenCalled()
  })

  it('rejects a wrong number of arguments', async () => {
    const { deps, dispatch } = setup()
    await expect(dispatch('openExternal', [])).rejects.toThrow(/^IPC openExternal: invalid arguments/)
    await expect(dispatch('getAppInfo', ['extra'])).rejects.toThrow(/^IPC getAppInfo: invalid arguments/)
    await expect(dispatch('openExternal', 'https://example.com/' as unknown as unknown[])).rejects.toThrow(
      /^IPC openExternal: invalid arguments/,
    )
    expect(deps.appInfo).not.toHaveBeenCalled()
    expect(deps.openExternal).not.toHaveBeenCalled()
  })

  it('does not echo the rejected value in its message', async () => {
    const { dispatch } = setup()
    const secret = 'http://token-abc123@example.com/'
    const error = await dispatch('openExternal', [secret]).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).not.toContain('token-abc123')
  })

  it('lets a handler failure reach the caller', async () => {
    const { deps, dispatch } = setup()
    deps.openExternal.mockRejectedValueOnce(new Error('no browser'))
    await expect(dispatch('openExternal', ['https://example.com/'])).rejects.toThrow('no browser')
  })
})
