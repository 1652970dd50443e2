import type { Browser, BrowserContext, Page } from '@playwright/test'
import { chromium } from '@playwright/test'
import playwrightConfig from '../playwright.config.ts'
import { createPreviewAssetLoader } from '#node/preview-assets.ts'
import type { PreviewAssetRequest } from '#shared/ipc.ts'
import { appContext, ensureBuilt, launchChromium, resourcesDir, serveRenderer } from './app-browser.ts'
import { log, result, type BenchResult } from './result.ts'

/**
 * `preview-paint-gap`: how long the window goes without painting while the SKU editor opens and
 * its preview draws the sample glasses lit by the default studio: the longest time between two
 * animation frames of the page, from the click on New SKU until 30 frames after the glasses are
 * drawn. With no GPU (these machines; a computer whose graphics card Chromium refuses), WebGL is
 * drawn in software in the GPU process, and the page's frames wait while it works, though the
 * page's thread is free: a freeze a person sees, which no long task shows. Against the same
 * opening in a browser without WebGL (launched without its software renderer), where the preview
 * says so and draws nothing: the page's own gaps on this machine. Each open on a page loaded
 * afresh (the preview's worker and its WebGL are each editor's own), after one to warm up. The
 * longest gap of any open is compared, not a median: the stall comes in some opens and not in
 * others (about half, here), and the worst is what a person meets.
 */
const ROUNDS = 5
const TIMEOUT_MS = 120_000
/** Frames watched after the glasses are drawn: about half a second at 60 a second. */
const SETTLE_FRAMES = 30

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
  // Watched on for SETTLE_FRAMES frames: "drawn" says the worker has asked for its frame, and
  // the GPU process's work may still hold the page's frames, or be about to.
  await page.evaluate((frames) => {
    const g = globalThis as unknown as { requestAnimationFrame(callback: () => void): number }
    return new Promise((done) => {
      const next = (left: number) =>
        left > 0 ? g.requestAnimationFrame(() => next(left - 1)) : done(undefined)
      next(frames)
    })
  }, SETTLE_FRAMES)
  return page.evaluate(() => (globalThis as unknown as PaintGlobals).__paint.longest)
}

const glassesDrawn = async (page: Page) => {
  await page
    .getByTestId('preview-model')
    .filter({ hasText: 'Showing the sample glasses' })
    .waitFor({ timeout: TIMEOUT_MS })
  await page.locator('[data-busy="false"][data-drawn="true"]').waitFor({ timeout: TIMEOUT_MS })
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
    return [result('assets', 'preview-paint-gap', Math.max(...gaps.drawn), Math.max(...gaps.none))]
  } finally {
    await withWebGL.close()
    await withoutWebGL.close()
    await renderer.close()
  }
}
