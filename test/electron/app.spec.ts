import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test'
import { ElectronBinaryError, resolveElectronBinary } from '../../scripts/electron-binary.js'

/**
 * Why the suite cannot run here, if it cannot. The binary is resolved as `npm start` resolves it
 * (downloaded where it can be), so a missing one is named with the download's own failure.
 */
async function electronOrSkipReason(): Promise<{ reason: string } | { executable: string }> {
  let executable: string
  try {
    executable = (await resolveElectronBinary()).path
  } catch (error) {
    if (error instanceof ElectronBinaryError) return { reason: error.message }
    throw error
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display (DISPLAY/WAYLAND_DISPLAY unset); run it under xvfb-run' }
  }
  if (!existsSync('out/main/index.js'))
    return { reason: 'the app is not built (out/main/index.js); run npm run build' }
  return { executable }
}

test.describe.configure({ mode: 'serial' })

let app: ElectronApplication
let mainWindow: Page

test.beforeAll(async () => {
  // Here, not at module level: the file is also loaded to list tests, in other processes, and
  // resolving may download Electron.
  const found = await electronOrSkipReason()
  if ('reason' in found) {
    console.log(`electron suite skipped: ${found.reason}`)
    test.skip(true, found.reason)
    return
  }
  app = await electron.launch({
    executablePath: found.executable,
    // Chromium refuses to start as root with its sandbox on (CI runs as root); the renderer's
    // sandbox and context isolation asserted below are web preferences and stay on.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), 'out/main/index.js'],
    env: { ...process.env, NODE_ENV: 'production' },
  })
  mainWindow = await app.firstWindow()
  await mainWindow.waitForLoadState('domcontentloaded')
})

test.afterAll(async () => {
  await app?.close()
})

test('opens one window titled Catalog Desk', async () => {
  await expect(mainWindow).toHaveTitle('Catalog Desk')
  expect(app.windows()).toHaveLength(1)
})

test('exposes window.api but no Node globals to the page', async () => {
  const globals = await mainWindow.evaluate(() => {
    const page = globalThis as unknown as Record<string, unknown>
    return {
      api: typeof page.api,
      getAppInfo: typeof (page.api as Record<string, unknown> | undefined)?.getAppInfo,
      require: typeof page.require,
      process: typeof page.process,
      module: typeof page.module,
    }
  })
  expect(globals).toEqual({
    api: 'object',
    getAppInfo: 'function',
    require: 'undefined',
    process: 'undefined',
    module: 'undefined',
  })
})

test('shows the navigation', async () => {
  const navigation = mainWindow.getByRole('navigation')
  for (const name of ['SKUs', 'Apps', 'Sync', 'Settings']) {
    await expect(navigation.getByRole('link', { name })).toBeVisible()
  }
  await mainWindow.screenshot({ path: 'test-results/screenshots/electron-shell.png' })
})

test('serves the page from app://catalog-desk, a secure origin with storage and locks, and no other file', async () => {
  expect(mainWindow.url()).toMatch(/^app:\/\/catalog-desk\/index\.html(#.*)?$/)
  // A page on file:// could read this file of the app's own; one on app:// must not.
  const mainOnDisk = pathToFileURL(resolve('out/main/index.js')).href
  const facts = await mainWindow.evaluate(async (fileOnDisk) => {
    // This project's Node type-check has no DOM library: the page's globals are named here.
    const page = globalThis as unknown as {
      isSecureContext: boolean
      navigator: { locks: { request<T>(name: string, task: () => Promise<T>): Promise<T> } }
      indexedDB: {
        open(name: string): { onsuccess: () => void; onerror: () => void; result: { close(): void } }
      }
      XMLHttpRequest: new () => {
        open(method: string, url: string): void
        send(): void
        onload: () => void
        onerror: () => void
      }
    }
    const storage = await new Promise<string>((done) => {
      const opening = page.indexedDB.open('catalog-desk-origin-check')
      opening.onsuccess = () => {
        opening.result.close()
        done('opened')
      }
      opening.onerror = () => done('refused')
    })
    const locked = await page.navigator.locks.request('catalog-desk-origin-check', async () => 'held')
    const status = async (url: string) => (await fetch(url)).status
    const disk = await new Promise<string>((done) => {
      const reading = new page.XMLHttpRequest()
      reading.onload = () => done('read')
      reading.onerror = () => done('refused')
      try {
        reading.open('GET', fileOnDisk)
        reading.send()
      } catch {
        done('refused')
      }
    })
    return {
      secure: page.isSecureContext,
      storage,
      locked,
      page: await status('./index.html'),
      outside: await status('./..%2fmain%2findex.js'),
      disk,
    }
  }, mainOnDisk)
  expect(facts).toEqual({
    secure: true,
    storage: 'opened',
    locked: 'held',
    page: 200,
    outside: 404,
    disk: 'refused',
  })
})

test('runs the importer’s module worker from the app origin', async () => {
  await mainWindow.getByRole('link', { name: 'Import' }).click()
  await mainWindow.getByLabel('Choose a file').setInputFiles({
    name: 'two.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Product name,Brand,Colour\r\nAviator,Northwind Optics,Smoke grey\r\n'),
  })
  // The mapping screen is the worker's answer: the page itself never reads the file.
  await expect(mainWindow.getByRole('heading', { name: 'Map the columns' })).toBeVisible()
})
