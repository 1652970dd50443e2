import type { Browser, BrowserContext, Page } from '@playwright/test'
import { chromium } from '@playwright/test'
import playwrightConfig from '../playwright.config.ts'
import { createPreviewAssetLoader } from '#node/preview-assets.ts'
import type { PreviewAssetRequest } from '#shared/ipc.ts'
import { appContext, ensureBuilt, launchChromium, resourcesDir, serveRenderer } from './app-browser.ts'
import { log, median, result, type BenchResult } from './result.ts'

/**
 * `preview-paint-gap`: how long the window goes without painting while the SKU editor opens and
 * its preview draws the sample glasses lit by the default studio: the longest time between two
 * animation frames of the page, from the click on New SKU until the glasses are drawn. With no GPU
 * (these machines; a computer whose graphics card Chromium refuses), WebGL is drawn in software in
 * the GPU process, and the page's frames wait while it works, though the page's thread is free:
 * a freeze a person sees, which no long task shows. Against the same opening in a browser without
 * WebGL (launched without its software renderer), where the preview says so and draws nothing:
 * the page's own gaps on this machine. Each open on a page loaded afresh (the preview's worker and
 * its WebGL are each editor's own), after one to warm up; medians compared.
 */
const ROUNDS = 5
const TIMEOUT_MS = 120_000

/** Watches the page's frames from its first script: the longest gap since the last `__paintFrom`. */
function watchFrames() {
  const g = globalThis as unknown as {
    requestAnimationFrame(callback: (time: number) => void): number
    __paint: { from: number; last: number; longest: number }
  }
  g.__paint = { from: Infinity, last: 0, longest: 0 }
  const tick = (time: number) => {
    const paint = g.__paint
    if (time >= paint.from) paint.longest = Math.max(paint.longest, time - Math.max(paint.last, paint.from))
    paint.last = time
    g.requestAnimationFrame(tick)
  }
  g.requestAnimationFrame(tick)
}

type PaintGlobals = { __paint: { from: number; last: number; longest: number } }

async function editorContext(browser: Browser): Promise<BrowserContext> {
  const loader = createPreviewAssetLoader({ resourcesDir, allowLocalAddresses: () => false })
  const context = await appContext(browser, {
    loadPreviewAsset: (request: PreviewAssetRequest) => loader.load(request),
  })
  await context.addInitScript(watchFrames)
  return context
}

/** Opens a new SKU on a freshly loaded list; the longest frame gap until `drawn` is on screen. */
async function longestGap(page: Page, url: string, drawn: (page: Page) => Promise<void>): Promise<number> {
  // Left for the list (an untouched new draft goes with its editor), then loaded afresh.
  await page.goto(`${url}#/skus`)
  await page.reload()
  await page.getByText('No SKU drafts yet').waitFor()
  await page.evaluate(() => {
    const paint = (globalThis as unknown as PaintGlobals).__paint
    paint.from = (globalThis as unknown as { performance: { now(): number } }).performance.now()
    paint.longest = 0
  })
  await page.getByRole('button', { name: 'New SKU' }).click()
  await drawn(page)
  // The frame after: a gap still open when the glasses were drawn ends here.
  await page.evaluate(
    () =>
      new Promise((done) =>
        (
          globalThis as unknown as { requestAnimationFrame(callback: () => void): number }
        ).requestAnimationFrame(() => done(undefined)),
      ),
  )
  return page.evaluate(() => (globalThis as unknown as PaintGlobals).__paint.longest)
}

const glassesDrawn = async (page: Page) => {
  await page
    .getByTestId('preview-model')
    .filter({ hasText: 'Showing the sample glasses' })
    .waitFor({ timeout: TIMEOUT_MS })
  await page.locator('[data-busy="false"]').waitFor({ timeout: TIMEOUT_MS })
}

const noWebGLSaid = (page: Page) =>
  page.getByText('The 3D preview needs WebGL').waitFor({ timeout: TIMEOUT_MS })

export async function previewPaint(): Promise<BenchResult[]> {
  ensureBuilt()
  const renderer = await serveRenderer()
  const withWebGL = await launchChromium()
  const launch = playwrightConfig.use?.launchOptions ?? {}
  const withoutWebGL = await chromium.launch({
    headless: true,
    ...launch,
    args: [...(launch.args ?? []), '--disable-software-rasterizer'],
  })
  try {
    const pages = {
      drawn: await (await editorContext(withWebGL)).newPage(),
      none: await (await editorContext(withoutWebGL)).newPage(),
    }
    const gaps = { drawn: [] as number[], none: [] as number[] }
    for (let round = 0; round <= ROUNDS; round++) {
      for (const kind of round % 2 ? (['none', 'drawn'] as const) : (['drawn', 'none'] as const)) {
        const gap = await longestGap(pages[kind], renderer.url, kind === 'drawn' ? glassesDrawn : noWebGLSaid)
        if (round > 0) gaps[kind].push(gap)
        log(
          `preview-paint: round ${round}${round ? '' : ' (warm-up)'}, ${kind}: longest gap ${gap.toFixed(0)} ms`,
        )
      }
    }
    return [result('assets', 'preview-paint-gap', median(gaps.drawn), median(gaps.none))]
  } finally {
    await withWebGL.close()
    await withoutWebGL.close()
    await renderer.close()
  }
}
