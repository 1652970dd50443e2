import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createMainWindow, mainWindowOptions } from '#main/window.ts'

const fake = vi.hoisted(() => {
  const created: FakeBrowserWindow[] = []
  class FakeBrowserWindow {
    readonly listeners = new Map<string, () => void>()
    readonly show = vi.fn()
    readonly options: unknown
    constructor(options: unknown) {
      this.options = options
      created.push(this)
    }
    once(event: string, listener: () => void) {
      this.listeners.set(event, listener)
      return this
    }
  }
  return { created, FakeBrowserWindow }
})
vi.mock('electron', () => ({ BrowserWindow: fake.FakeBrowserWindow }))

beforeEach(() => {
  fake.created.length = 0
})

describe('mainWindowOptions', () => {
  const options = mainWindowOptions('/app/out/preload/index.cjs')

  it('isolates and sandboxes the page, with the given preload', () => {
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    })
  })

  it('is titled, sized and hidden until ready', () => {
    expect(options).toMatchObject({ title: 'Catalog Desk', show: false })
    expect(options.backgroundColor).toMatch(/^#[0-9a-f]{6}$/i)
    expect(options.minWidth).toBeGreaterThanOrEqual(800)
    expect(options.width).toBeGreaterThanOrEqual(options.minWidth!)
    expect(options.height).toBeGreaterThanOrEqual(options.minHeight!)
  })
})

describe('createMainWindow', () => {
  it('creates the window with those options and shows it once ready to show', () => {
    createMainWindow('/app/out/preload/index.cjs')
    expect(fake.created).toHaveLength(1)
    const window = fake.created[0]!
    expect(window.options).toEqual(mainWindowOptions('/app/out/preload/index.cjs'))
    expect(window.show).not.toHaveBeenCalled()
    window.listeners.get('ready-to-show')?.()
    expect(window.show).toHaveBeenCalledOnce()
  })
})
