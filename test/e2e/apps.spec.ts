import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Locator, Page } from '@playwright/test'
import pixelmatch from 'pixelmatch'
import { PNG } from 'pngjs'
import { getAt } from '#shared/json-path.ts'
import { flag, labelled, saved } from './harness/editor-page.ts'
import { axe, expect, screenshot, test } from './harness/fixtures.ts'

/** A PNG of one colour, so a picture in the preview can be recognised by its pixels. */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const png = new PNG({ width, height })
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = r
    png.data[i + 1] = g
    png.data[i + 2] = b
    png.data[i + 3] = 255
  }
  return PNG.sync.write(png)
}

interface PictureServer {
  url: string
  requests: string[]
  close(): Promise<void>
}

/** Loopback web server for the draft's pictures: a logo and two banners; anything else is a 404. */
async function startPictureServer(): Promise<PictureServer> {
  const requests: string[] = []
  const files: Record<string, Buffer> = {
    '/logo.png': solidPng(120, 40, [190, 30, 45]),
    '/web-banner.png': solidPng(300, 100, [30, 90, 200]),
    '/mobile-banner.png': solidPng(150, 200, [240, 170, 20]),
  }
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '')
    const file = files[request.url ?? '']
    if (file)
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': file.length }).end(file)
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  }
}

let pictures: PictureServer

// The picture server stands in for a CDN on this computer: allowed, as a person testing with
// files served from their own machine would allow it (sku-editor.spec.ts shows the refusal first).
test.use({ allowLocalAddresses: true })

test.beforeAll(async () => {
  pictures = await startPictureServer()
})

test.afterAll(async () => {
  await pictures.close()
})

const DESKTOP = { width: 1440, height: 900 }

async function newApp(page: Page) {
  await page.setViewportSize(DESKTOP)
  await page.goto('/#/apps')
  await page.getByRole('button', { name: 'New app' }).click()
  await expect(page.getByRole('heading', { name: 'Untitled app' })).toBeVisible()
}

/** The open group's controls (problems also show, collapsed, in the summary above the tabs). */
const panel = (page: Page) => page.getByRole('tabpanel')
const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) })
const textbox = (page: Page, name: string) => page.getByRole('textbox', { name: labelled(name) })
/** A text input with suggestions (an open list of values) is a combobox. */
const combo = (page: Page, name: string) => page.getByRole('combobox', { name: labelled(name) })
/** Turns a yes/no setting the other way: On becomes Off, anything else On. */
async function flip(page: Page, name: string) {
  const select = flag(page, name)
  await select.selectOption((await select.inputValue()) === 'on' ? 'off' : 'on')
}
/** The sketch of the shopper's screen (a focusable region named after the screen and size). */
const shopper = (page: Page) => page.getByTestId('app-preview-screen')
const previewControl = (page: Page, name: string) =>
  page.getByRole('complementary', { name: 'App preview' }).getByRole('radio', { name, exact: true })

type Json = Record<string, unknown>

/** An app draft as the app stored it: its payload and the columns derived from it. */
interface StoredApp {
  id: string
  name: string
  validity: string
  sync: Record<string, unknown>
  payload: Json
}

// The test programme compiles without the DOM library: the little of it used in the page, by hand.
interface IdbRequest<T> {
  result: T
  onsuccess: (() => void) | null
  onerror: (() => void) | null
}
interface IdbStore {
  getAll(): IdbRequest<unknown[]>
  get(key: string): IdbRequest<Json>
  put(value: unknown): IdbRequest<unknown>
}
interface PageGlobals {
  indexedDB: {
    open(name: string): IdbRequest<{
      close(): void
      transaction(store: string, mode?: string): { objectStore(name: string): IdbStore }
    }>
  }
  getComputedStyle(element: unknown): { getPropertyValue(name: string): string; fontFamily: string }
}

/** The app request as the editor's JSON view shows it (what is sent). */
async function requestJson(page: Page): Promise<Json> {
  const view = page.getByText('Request JSON, as it will be sent')
  if (!(await page.getByLabel('App request JSON').isVisible())) await view.click()
  return JSON.parse(await page.getByLabel('App request JSON').innerText()) as Json
}

/** Every app draft in the page's IndexedDB, read with the raw API rather than the app's code. */
async function storedApps(page: Page): Promise<StoredApp[]> {
  return page.evaluate(
    () =>
      new Promise<StoredApp[]>((resolve, reject) => {
        const idb = (globalThis as unknown as PageGlobals).indexedDB
        const open = idb.open('catalog-desk')
        open.onerror = () => reject(new Error('cannot open catalog-desk'))
        open.onsuccess = () => {
          const request = open.result.transaction('appDrafts').objectStore('appDrafts').getAll()
          request.onsuccess = () => {
            open.result.close()
            resolve(request.result as StoredApp[])
          }
        }
      }),
  )
}

async function pixels(locator: Locator): Promise<PNG> {
  return PNG.sync.read(await locator.screenshot({ animations: 'disabled' }))
}

/** Share of pixels that differ visibly between two shots of the same element. */
function changed(before: PNG, after: PNG): number {
  expect([after.width, after.height]).toEqual([before.width, before.height])
  const differing = pixelmatch(before.data, after.data, undefined, before.width, before.height, {
    threshold: 0.1,
  })
  return differing / (before.width * before.height)
}

/** The computed colour of an element, as rgb(…). */
const colourOf = (locator: Locator, property: 'color' | 'background-color') =>
  locator.evaluate(
    (element, name) =>
      (globalThis as unknown as PageGlobals).getComputedStyle(element).getPropertyValue(name),
    property,
  )

/** Whether an <img> has decoded pixels (a loaded picture, not a placeholder). */
const naturalWidth = (locator: Locator) =>
  locator.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)

test.use({ actionTimeout: 10_000 })

test.describe('App drafts', () => {
  test('configuring an app group by group, with the preview following every change', async ({
    page,
    clipboard,
  }) => {
    test.setTimeout(90_000)
    await newApp(page)
    await expect(page.getByText('2 fields not filled')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Preview — a sketch of what shoppers see' })).toBeVisible()
    await screenshot(page, 'apps-editor-general')
    // The summary leads to each problem: its tab, then its input.
    await tab(page, 'Meta').click()
    await page.getByText('What needs a look').click()
    await page.getByRole('button', { name: 'Logo is missing' }).click()
    await expect(tab(page, 'Report')).toHaveAttribute('aria-selected', 'true')
    await expect(textbox(page, 'Logo')).toBeFocused()
    await page.getByRole('button', { name: 'App name is missing' }).click()
    await expect(textbox(page, 'App name')).toBeFocused()

    // General: the name, and image retention by preset or by a number of days of one's own.
    await textbox(page, 'App name').fill('Northwind Skin Check')
    await expect(page.getByRole('heading', { name: 'Northwind Skin Check' })).toBeVisible()
    await page.getByRole('radio', { name: '3 years', exact: true }).check()
    await page.getByRole('radio', { name: 'Custom', exact: true }).check()
    const days = page.getByRole('spinbutton', { name: 'Keep images for (days)' })
    await expect(days).toBeFocused()
    await expect(days).toHaveValue('1095')
    await days.fill('-1')
    await expect(
      panel(page).getByText('Image retention (days) must be 0 or more, not the number -1'),
    ).toBeVisible()
    await expect(tab(page, 'General')).toContainText('1 error')
    await days.fill('30')
    await expect(page.getByText('must be 0 or more')).toHaveCount(0)
    await page.getByRole('radio', { name: 'None', exact: true }).check()
    await expect(page.getByText('None sends 0 days.')).toBeVisible()
    await page.getByRole('radio', { name: '1 year', exact: true }).check()

    // Report: the preview switches to the report and follows titles, logo, concerns and features.
    await tab(page, 'Report').click()
    await expect(shopper(page)).toHaveAttribute('data-screen', 'report')
    await textbox(page, 'Report title').fill('Northwind skin report')
    await expect(shopper(page).getByText('Northwind skin report')).toBeVisible()
    await textbox(page, 'Logo').fill(`${pictures.url}/logo.png`)
    const formLogo = page.getByRole('img', { name: 'Logo', exact: true }).first()
    await expect(shopper(page).getByRole('img', { name: 'Logo', exact: true })).toBeVisible()
    await expect
      .poll(() => naturalWidth(shopper(page).getByRole('img', { name: 'Logo', exact: true })))
      .toBe(120)
    await expect.poll(() => naturalWidth(formLogo)).toBe(120)
    expect(pictures.requests.filter((url) => url === '/logo.png')).toHaveLength(1)

    await expect(shopper(page).locator('[data-concern="acne"]')).toBeVisible()
    await flip(page, 'Acne')
    await expect(shopper(page).locator('[data-concern="acne"]')).toHaveCount(0)
    await expect(shopper(page).locator('[data-concern]')).toHaveCount(8)
    await page.getByRole('button', { name: 'All off (Overall skin score)' }).click()
    await expect(shopper(page).getByText('Skin score')).toHaveCount(0)
    await flip(page, 'Skin age')
    await expect(shopper(page).getByText('Skin age')).toBeVisible()
    await expect(shopper(page).getByText('Add to cart')).toHaveCount(0)
    await flip(page, 'Show add to cart')
    await expect(shopper(page).getByText('Add to cart')).toHaveCount(2)
    await flip(page, 'Show the future skin simulation')
    await textbox(page, 'Future skin simulation title').fill('You, in ten years')
    await expect(shopper(page).getByText('You, in ten years')).toBeVisible()
    await flip(page, 'Show the beauty chatbot')
    await expect(shopper(page).getByText('Ask our beauty assistant')).toBeVisible()
    await screenshot(page, 'apps-editor-report')
    await page.setViewportSize({ width: 1280, height: 800 })
    await viewShot(page, 'apps-editor-report-1280')
    // A narrow window keeps the preview beside the form, in a narrower column: the form's tabs
    // start at the top of the screen, not below a preview as tall as it.
    await page.setViewportSize({ width: 1000, height: 800 })
    const previewBox = (await page.getByRole('complementary', { name: 'App preview' }).boundingBox())!
    const formBox = (await page.getByRole('tablist').boundingBox())!
    expect(formBox.x + formBox.width).toBeLessThanOrEqual(previewBox.x)
    await page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    )
    await viewShot(page, 'apps-editor-report-1000')
    await page.setViewportSize(DESKTOP)

    // Experience: working in a screen's fields shows that screen.
    await tab(page, 'Experience').click()
    await expect(shopper(page)).toHaveAttribute('data-screen', 'instructions')
    await expect(shopper(page).getByTitle('Back')).toBeVisible()
    await flip(page, 'Back button')
    await expect(shopper(page).getByTitle('Back')).toHaveCount(0)
    await textbox(page, 'Loading screen title').fill('One moment, please')
    await expect(shopper(page)).toHaveAttribute('data-screen', 'loading')
    await expect(shopper(page).getByText('One moment, please')).toBeVisible()
    await page.getByRole('button', { name: 'Add info text' }).click()
    await expect(textbox(page, 'Info text 2')).toBeFocused()
    await page.keyboard.type('Most people see results in four weeks.')
    await shopper(page).getByRole('button', { name: 'Show fact 2 of 2' }).click()
    await expect(shopper(page).getByText('Most people see results in four weeks.')).toBeVisible()

    await page.getByRole('button', { name: 'Add instruction' }).click()
    await expect(textbox(page, 'Instruction 4')).toBeFocused()
    await page.keyboard.type('Smile!')
    await expect(shopper(page)).toHaveAttribute('data-screen', 'instructions')
    // Moved to the top by keyboard: focus stays on the button that moves it.
    await page.getByRole('button', { name: 'Move Instruction 4 up' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('button', { name: 'Move Instruction 3 up' })).toBeFocused()
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    await expect(page.getByRole('button', { name: 'Move Instruction 1 down' })).toBeFocused()
    await expect(shopper(page).locator('.shop-steps__step').first()).toHaveText('1Smile!')
    await page.getByRole('button', { name: 'Remove Instruction 3' }).click()
    await expect(shopper(page).locator('.shop-steps__step')).toHaveText([
      '1Smile!',
      '2Face the camera in good, even light',
      '3Keep a neutral expression',
    ])

    await page.getByRole('button', { name: 'Add web banner' }).click()
    await expect(combo(page, 'Web banner size')).toHaveValue('1200x400')
    await textbox(page, 'Web banner image').fill(`${pictures.url}/web-banner.png`)
    await textbox(page, 'Web banner file name').fill('web-banner.png')
    await expect.poll(() => naturalWidth(shopper(page).getByRole('img', { name: 'Web banner' }))).toBe(300)
    await page.getByRole('button', { name: 'Add mobile banner' }).click()
    await textbox(page, 'Mobile banner image').fill(`${pictures.url}/mobile-banner.png`)
    await textbox(page, 'Mobile banner file name').fill('mobile-banner.png')
    await previewControl(page, 'Mobile').check()
    await expect(shopper(page)).toHaveAttribute('data-device', 'mobile')
    await expect.poll(() => naturalWidth(shopper(page).getByRole('img', { name: 'Mobile banner' }))).toBe(150)
    await screenshot(page, 'apps-editor-experience-mobile')
    await previewControl(page, 'Web').check()

    // Appearance: colours by hex or picker, contrast warnings, theme and font in the preview.
    await tab(page, 'Appearance').click()
    await previewControl(page, 'Instructions').check()
    const start = shopper(page).getByText('Start the analysis')
    await expect.poll(() => colourOf(start, 'background-color')).toBe('rgb(15, 118, 110)')
    const before = await pixels(shopper(page))
    await textbox(page, 'Primary colour').fill('#7FE0D6')
    await expect(page.getByText(/^Low contrast: 1\.\d:1 against its white button text/)).toBeVisible()
    await viewShot(page, 'apps-editor-contrast-warning')
    await textbox(page, 'Primary colour').fill('#B00040')
    await expect(page.getByText(/^Low contrast/)).toHaveCount(0)
    await expect.poll(() => colourOf(start, 'background-color')).toBe('rgb(176, 0, 64)')
    expect(changed(before, await pixels(shopper(page)))).toBeGreaterThan(0.002)
    await page.getByLabel('Icon colour: pick').fill('#336699')
    await expect(textbox(page, 'Icon colour')).toHaveValue('#336699')
    await combo(page, 'Theme type').fill('dark')
    await combo(page, 'Colour scheme').fill('dark')
    await expect.poll(() => colourOf(shopper(page), 'background-color')).toBe('rgb(17, 24, 39)')
    await expect(page.getByText(/^Low contrast: .* against the dark page: icons need/)).toBeVisible()
    // #B00040 was fine on white; a dark page makes the buttons hard to see.
    await expect(page.getByText(/^Low contrast: .* against the dark page: buttons need/)).toBeVisible()
    await page.getByLabel('Icon colour: pick').fill('#9CC3F0')
    await textbox(page, 'Primary colour').fill('#D6336C')
    await expect(page.getByText(/^Low contrast/)).toHaveCount(0)
    await combo(page, 'Font').fill('Georgia')
    await expect
      .poll(() =>
        shopper(page).evaluate(
          (element) => (globalThis as unknown as PageGlobals).getComputedStyle(element).fontFamily,
        ),
      )
      .toBe('Georgia, system-ui, sans-serif')
    await expect(page.getByText('Font: Georgia, drawn with')).toBeVisible()
    await screenshot(page, 'apps-editor-appearance')

    // Access: host names, with what the list does said where it is edited.
    await tab(page, 'Access').click()
    await expect(
      page.getByText(/blocks analysis requests that come from web pages on domains not in this list/),
    ).toBeVisible()
    await expect(page.getByText(/What an empty list means .* is not documented/)).toBeVisible()
    await page.getByRole('button', { name: 'Add domain' }).click()
    await expect(textbox(page, 'Allowed domain 1')).toBeFocused()
    await page.keyboard.type('https://shop.northwind.example/skin')
    await expect(
      panel(page).getByText(
        'Allowed domain 1 “https://shop.northwind.example/skin” must be the host name only (shop.northwind.example), without https://',
      ),
    ).toBeVisible()
    await expect(tab(page, 'Access')).toContainText('1 error')
    await page.getByRole('button', { name: 'Use shop.northwind.example' }).click()
    await expect(textbox(page, 'Allowed domain 1')).toHaveValue('shop.northwind.example')
    await expect(tab(page, 'Access')).not.toContainText('error')
    await screenshot(page, 'apps-editor-access')

    // Meta: JSON with its parse errors, kept at the last valid value meanwhile.
    await tab(page, 'Meta').click()
    const meta = page.getByLabel('App meta (JSON)')
    await meta.fill('{ "campaign": ')
    await expect(
      page.getByText(/^App meta is not valid JSON yet \(.+\); the field keeps its last valid value\.$/),
    ).toBeVisible()
    await meta.fill('["spring"]')
    await expect(page.getByText(/^App meta must be a JSON object/)).toBeVisible()
    await meta.fill('{ "campaign": "spring" }')
    await expect(page.getByText(/App meta (is not valid|must be)/)).toHaveCount(0)
    await screenshot(page, 'apps-editor-meta')

    // Everything above is in the request, saved, and can be copied.
    await saved(page)
    const json = await requestJson(page)
    expect(json).toMatchObject({
      name: 'Northwind Skin Check',
      expire_images_after_days: 365,
      meta: { campaign: 'spring' },
      report_config: {
        logo: `${pictures.url}/logo.png`,
        report_titles: { title: 'Northwind skin report' },
        overallSkinScore: { skinAge: true, skinTone: false, skinType: false, skinScore: false },
        skinConcerns: { concerns: { acne: false, wrinkles: true } },
        features: {
          beautyGptChatbot: { show: true },
          futureSkinSimulation: { show: true, title: 'You, in ten years' },
          productRecommendation: { addToCart: true },
        },
      },
      appConfig: {
        domains: ['shop.northwind.example'],
        ui_config: {
          advance: { allowBack: false },
          screens: {
            loadingScreen: {
              title: 'One moment, please',
              infoText: [
                'Even, natural light gives the most accurate results.',
                'Most people see results in four weeks.',
              ],
            },
            instructionScreen: {
              banner: {
                web: [{ url: `${pictures.url}/web-banner.png` }],
                mobile: [{ url: `${pictures.url}/mobile-banner.png` }],
              },
            },
          },
          appearance: {
            theme: {
              type: 'dark',
              configuration: { theme: 'dark', primaryColor: '#D6336C', iconColor: '#9CC3F0' },
            },
            typography: { font: 'Georgia' },
          },
        },
      },
    })
    expect(
      getAt(json, ['appConfig', 'ui_config', 'screens', 'instructionScreen', 'content', 'instructions']),
    ).toEqual([
      { text: 'Smile!' },
      { text: 'Face the camera in good, even light' },
      { text: 'Keep a neutral expression' },
    ])
    await page.getByRole('button', { name: 'Copy JSON' }).click()
    await expect(page.getByText('Copied to the clipboard.')).toBeVisible()
    expect(JSON.parse(clipboard.at(-1)!)).toEqual(json)
    const [stored] = await storedApps(page)
    expect(stored).toMatchObject({ name: 'Northwind Skin Check', validity: 'valid', sync: {} })
    expect(stored!.payload).toEqual(json)
    await expect(page.getByText('Ready to send')).toBeVisible()
  })
})

/** What is on screen now (the harness's screenshots are full-page, where sticky panels wander). */
async function viewShot(page: Page, name: string) {
  const path = `test-results/screenshots/${name}.png`
  await page.screenshot({ path })
  await test.info().attach(name, { path, contentType: 'image/png' })
}

/** Changes a stored draft with the raw IndexedDB API, as the sync engine will (it is not built yet). */
async function patchStoredApp(page: Page, id: string, patch: Record<string, unknown>) {
  await page.evaluate(
    ({ id, patch }) =>
      new Promise<void>((resolve, reject) => {
        const open = (globalThis as unknown as PageGlobals).indexedDB.open('catalog-desk')
        open.onerror = () => reject(new Error('cannot open catalog-desk'))
        open.onsuccess = () => {
          const store = open.result.transaction('appDrafts', 'readwrite').objectStore('appDrafts')
          const read = store.get(id)
          read.onsuccess = () => {
            const write = store.put({ ...read.result, ...patch })
            write.onsuccess = () => {
              open.result.close()
              resolve()
            }
          }
        }
      }),
    { id, patch },
  )
}

async function namedApp(page: Page, name: string): Promise<string> {
  await page.goto('/#/apps')
  await page.getByRole('button', { name: 'New app' }).click()
  await textbox(page, 'App name').fill(name)
  await saved(page)
  return /#\/apps\/(.+)$/.exec(page.url())![1]!
}

test.describe('App drafts list', () => {
  test('lists drafts; delete can be undone, duplicate and export work from the list', async ({ page }) => {
    await page.setViewportSize(DESKTOP)
    await page.goto('/#/apps')
    await expect(page.getByText('No app drafts yet.')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'App drafts' })).toBeVisible()
    expect(await axe(page)).toEqual([])

    const glow = await namedApp(page, 'Glow Check')
    await tab(page, 'Report').click()
    await textbox(page, 'Logo').fill('https://cdn.example.com/x.png')
    await saved(page)
    await namedApp(page, 'Northwind Skin Check')
    await page.getByRole('link', { name: '← All apps' }).click()
    const rows = page.getByRole('row')
    await expect(rows).toHaveCount(3)
    // Newest edit first, with status, checks, sync state and the created app (none yet).
    await expect(rows.nth(1)).toContainText('Northwind Skin Check')
    await expect(rows.nth(1)).toContainText('enabled')
    await expect(rows.nth(1)).toContainText('1 not filled')
    await expect(rows.nth(1)).toContainText('Not sent')
    await expect(rows.nth(2)).toContainText('Glow Check')
    await expect(rows.nth(2)).toContainText('Ready')
    await viewShot(page, 'apps-list')
    expect(await axe(page)).toEqual([])

    await page.getByRole('button', { name: 'Delete Glow Check' }).click()
    await expect(page.getByText('“Glow Check” deleted.')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Glow Check' })).toHaveCount(0)
    // Its row and button gone, the focus goes to the app now last, not to the page's start.
    await expect(page.getByRole('link', { name: 'Northwind Skin Check' })).toBeFocused()
    expect((await storedApps(page)).map((app) => app.name)).toEqual(['Northwind Skin Check'])
    const before = (await storedApps(page)).length
    await page.getByRole('button', { name: 'Undo' }).click()
    await expect(page.getByText('“Glow Check” restored.')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Glow Check' })).toBeVisible()
    const restored = (await storedApps(page)).find((app) => app.id === glow)!
    expect(getAt(restored.payload, ['report_config', 'logo'])).toBe('https://cdn.example.com/x.png')
    expect((await storedApps(page)).length).toBe(before + 1)

    // Ctrl+Z undoes a delete from the keyboard too.
    await page.getByRole('button', { name: 'Delete Glow Check' }).click()
    await expect(page.getByRole('link', { name: 'Glow Check' })).toHaveCount(0)
    await page.locator('body').press('Control+z')
    await expect(page.getByRole('link', { name: 'Glow Check' })).toBeVisible()

    await page.getByRole('button', { name: 'Duplicate Glow Check' }).click()
    await expect(page.getByText('“Glow Check (copy)” created as a copy.')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Glow Check (copy)' })).toBeFocused()

    const downloading = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export JSON of Northwind Skin Check' }).click()
    const file = await downloading
    expect(file.suggestedFilename()).toBe('app-northwind-skin-check.json')
    const exported = JSON.parse(await (await import('node:fs/promises')).readFile(await file.path(), 'utf8'))
    const stored = (await storedApps(page)).find((app) => app.name === 'Northwind Skin Check')!
    expect(exported).toEqual(stored.payload)
    expect(exported).toMatchObject({ name: 'Northwind Skin Check', sdkVersion: '2.0.0' })

    // A new app's editor starts with the focus on its heading, as a SKU's does.
    await page.getByRole('button', { name: 'New app' }).click()
    await expect(page.getByRole('heading', { name: 'Untitled app', level: 1 })).toBeFocused()
  })

  test('edits are saved as typed, survive a reload, and Undo steps back through them', async ({ page }) => {
    const id = await namedApp(page, 'Glow')
    await textbox(page, 'App name').fill('Glow Check')
    await saved(page)
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Glow Check' })).toBeVisible()
    await expect(textbox(page, 'App name')).toHaveValue('Glow Check')
    await expect(page.getByRole('button', { name: 'Undo' })).toBeDisabled()
    await page.getByRole('radio', { name: '3 years' }).check()
    await saved(page)
    await page.getByRole('button', { name: 'Undo' }).click()
    await expect(page.getByRole('radio', { name: '1 year' })).toBeChecked()
    await saved(page)
    expect((await storedApps(page)).find((app) => app.id === id)!.payload.expire_images_after_days).toBe(365)

    // Duplicate opens the copy in a fresh editor; the original is left as it was.
    await page.getByRole('button', { name: 'Duplicate' }).click()
    await expect(page.getByRole('heading', { name: 'Glow Check (copy)' })).toBeVisible()
    expect(page.url()).not.toContain(id)
    await textbox(page, 'App name').fill('Glow Check, summer')
    await saved(page)
    const names = (await storedApps(page)).map((app) => app.name).sort()
    expect(names).toEqual(['Glow Check', 'Glow Check, summer'])
  })

  test('an app that sync created shows its id there, stays editable for other destinations, and is kept', async ({
    page,
  }) => {
    const id = await namedApp(page, 'Sent app')
    const standing = { state: 'synced', run: 'run-1', position: 0, at: Date.now() }
    const onSandbox = { ...standing, remoteId: '6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60' }
    // Only tried on the built-in Sandbox, each desk's own: it can be deleted.
    await patchStoredApp(page, id, {
      sync: { 'embedded-sandbox': onSandbox },
      standing: ['embedded-sandbox\u0000synced'],
    })
    await page.reload()
    await expect(page.getByText('Sandbox has this app, and it is not created there again')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Delete' })).toBeEnabled()
    // Created on a service too: kept, so it is never created twice.
    await patchStoredApp(page, id, {
      sync: { 'embedded-sandbox': onSandbox, 'https://catalog-api.example': { ...standing, run: 'run-2' } },
      standing: ['embedded-sandbox\u0000synced', 'https://catalog-api.example\u0000synced'],
    })
    await page.reload()
    await expect(page.getByText('Sandbox has this app, and it is not created there again')).toBeVisible()
    await expect(
      page.getByRole('region', { name: 'Created on Sandbox' }).getByTestId('created-app-id'),
    ).toHaveText('6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60')
    await expect(textbox(page, 'App name')).toBeEditable()
    await expect(page.getByRole('button', { name: 'Delete' })).toBeDisabled()
    await page.getByRole('link', { name: '← All apps' }).click()
    const row = page.getByRole('row', { name: /Sent app/ })
    await expect(row).toContainText('Created')
    await expect(row).toContainText('6f1c2a4e-8b3d-4c5e-9f7a-1b2c3d4e5f60')
    await expect(page.getByRole('button', { name: 'Delete Sent app' })).toBeDisabled()
  })
})

test.describe('App preview', () => {
  test('pictures that cannot be loaded leave a grey box and say why', async ({ page, pageProblems }) => {
    pageProblems.allow(/Failed to load resource/)
    await newApp(page)
    await tab(page, 'Report').click()
    await textbox(page, 'Logo').fill(`${pictures.url}/missing-logo.png`)
    await expect(shopper(page).getByRole('img', { name: 'Logo: not loaded' })).toBeVisible()
    await expect(
      page.getByText(
        /Logo not shown \(Could not load .*missing-logo\.png: the server answered HTTP 404 \(Not Found\)\); a grey box stands in for it\./,
      ),
    ).toBeVisible()
    await expect(panel(page).getByText(/Not shown: Could not load .*HTTP 404/)).toBeVisible()
    // Nothing listening (as offline): the same placeholder, another reason.
    await textbox(page, 'Logo').fill('http://127.0.0.1:9/logo.png')
    await expect(page.getByText(/Logo not shown \(.*no connection, the server refused it/)).toBeVisible()
    await textbox(page, 'Logo').fill(`${pictures.url}/logo.png`)
    await expect(page.getByText(/Logo not shown/)).toHaveCount(0)
    await expect
      .poll(() => naturalWidth(shopper(page).getByRole('img', { name: 'Logo', exact: true })))
      .toBe(120)
  })

  test('web and mobile sizes, every screen, keyboard use and no serious accessibility problems', async ({
    page,
  }) => {
    test.setTimeout(60_000)
    await newApp(page)
    // The tabs work as a tab list: arrows move between them.
    await tab(page, 'General').focus()
    await page.keyboard.press('ArrowRight')
    await expect(tab(page, 'Report')).toBeFocused()
    await expect(tab(page, 'Report')).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('End')
    await expect(tab(page, 'Meta')).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('ArrowRight')
    await expect(tab(page, 'General')).toHaveAttribute('aria-selected', 'true')

    for (const name of ['General', 'Report', 'Experience', 'Appearance', 'Access', 'Meta']) {
      await tab(page, name).click()
      expect(await axe(page), `${name} tab`).toEqual([])
    }

    // The Experience tab showed the instruction screen; the preview keeps it until told otherwise.
    await expect(shopper(page)).toHaveAttribute('aria-label', 'Instructions screen, web size')
    await previewControl(page, 'Report').check()
    const web = await pixels(shopper(page))
    await previewControl(page, 'Mobile').check()
    await expect(shopper(page)).toHaveAttribute('aria-label', 'Report screen, mobile size')
    const box = await shopper(page).boundingBox()
    expect(box!.width).toBeLessThan(300)
    expect(web.width).toBeGreaterThan(400)
    await viewShot(page, 'apps-preview-report-mobile')
    for (const screen of ['Loading', 'Instructions', 'Report']) {
      await previewControl(page, screen).check()
      await expect(shopper(page)).toHaveAttribute('aria-label', `${screen} screen, mobile size`)
      expect(await axe(page, { include: '.app-preview' }), `${screen}, mobile`).toEqual([])
    }
    await previewControl(page, 'Loading').check()
    await previewControl(page, 'Web').check()
    await expect(shopper(page).getByText('Analysing your skin')).toBeVisible()
    await expect(shopper(page).getByText('Did you know?')).toBeVisible()
    await viewShot(page, 'apps-preview-loading-web')
    await tab(page, 'Experience').click()
    await flip(page, 'Show facts while loading')
    await expect(shopper(page).getByText('Did you know?')).toHaveCount(0)
    await flip(page, 'Show watermark')
    await expect(shopper(page).getByText('Powered by skin analysis')).toHaveCount(0)
  })
})
