import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from '@playwright/test'
import { CONTENT_SECURITY_POLICY } from '#main/content-security-policy.ts'
import { thumbnailRoute } from '#node/thumbnail-route.ts'
import { appContext, ensureBuilt, launchChromium, resourcesDir, serveRenderer } from './app-browser.ts'
import { editorOpen } from './editor-open.ts'
import { median, result, log, type BenchResult } from './result.ts'
import { searchTerms } from '#shared/search-terms.ts'
import { seedDrafts, type SeededDraft } from './seed-drafts.ts'
import { waitUntilSettled } from './settle.ts'

/**
 * The SKU list at catalogue scale: the same work at 1,000 drafts (the baseline) and at 100,000,
 * in the built renderer in Chromium with real IndexedDB. If the list reads only what it shows,
 * the ratios stay near 1. The rows' photos come as in the app: through main's thumbnail route
 * (run here, in the benchmark's process), from a server on this computer standing in for a CDN
 * ("Allow local addresses" on).
 */
const BASELINE_SIZE = 1_000
const SIZE = 100_000
const REPETITIONS = 5
/** A brand word: one draft in eight matches it, whatever the size. */
const SEARCH = 'contoso'
/**
 * Four digits inside the barcodes, never at their start (they all start 8901): found through the
 * barcodes' parts in the search index (src/shared/search-terms.ts). 11 drafts at 1,000; 1,121 at
 * 100,000, where the names numbered 004200 to 004299 match too, by their start as any word does.
 */
const BARCODE_PART = '0042'

interface Timings {
  open: number[]
  search: number[]
  searchBarcodePart: number[]
  scrollToEnd: number[]
}

export async function listScenario(): Promise<BenchResult[]> {
  ensureBuilt()
  const photos = await servePhotos()
  const server = await serveRenderer(
    thumbnailRoute({ policy: CONTENT_SECURITY_POLICY, allowLocalAddresses: () => true, resourcesDir }),
  )
  const browser = await launchChromium()
  try {
    const baseline = await measure(browser, server.url, photos.url, BASELINE_SIZE)
    const scaled = await measure(browser, server.url, photos.url, SIZE)
    return [
      result('list', 'open', median(scaled.open), median(baseline.open)),
      result('list', 'search', median(scaled.search), median(baseline.search)),
      result(
        'list',
        'search-barcode-part',
        median(scaled.searchBarcodePart),
        median(baseline.searchBarcodePart),
      ),
      result('list', 'scroll-to-end', median(scaled.scrollToEnd), median(baseline.scrollToEnd)),
      ...(await editorOpen(browser, server.url, photos.url)),
    ]
  } finally {
    await browser.close()
    await server.close()
    await photos.close()
  }
}

/** A loopback server answering every photo address with a small picture. */
async function servePhotos(): Promise<{ url: string; close(): Promise<void> }> {
  const picture =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#ddd"/></svg>'
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/svg+xml', 'content-length': Buffer.byteLength(picture) })
    response.end(picture)
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  }
}

async function measure(browser: Browser, url: string, photos: string, size: number): Promise<Timings> {
  const context = await appContext(browser)
  await context.addInitScript(markFirstRows)
  const page = await context.newPage()
  await page.goto(`${url}#/skus`)
  await page.getByText('No SKU drafts yet').waitFor()
  const seededAt = Date.now()
  const drafts = await seedDrafts(page, size, { photos })
  log(`list: ${size} drafts seeded in ${Date.now() - seededAt} ms`)
  // Measure the list a user opens, not the aftermath of seeding it (see settle.ts).
  await waitUntilSettled(`list at ${size}`)

  const matches = drafts.filter((draft) => draft.brand.toLowerCase().startsWith(SEARCH))
  const byPart = drafts.filter(
    (draft) =>
      draft.barcode.includes(BARCODE_PART) ||
      searchTerms(draft.productName, draft.brand).some((word) => word.startsWith(BARCODE_PART)),
  )
  const timings: Timings = { open: [], search: [], searchBarcodePart: [], scrollToEnd: [] }
  await openList(page) // once to warm up: the first load compiles the app's scripts
  for (let i = 0; i < REPETITIONS; i++) {
    timings.open.push(await openList(page))
    timings.search.push(
      await page.evaluate(timeSearch, { text: SEARCH, rows: matches.length, firstId: matches[0]!.id }),
    )
    await openList(page)
    timings.searchBarcodePart.push(
      await page.evaluate(timeSearch, { text: BARCODE_PART, rows: byPart.length, firstId: byPart[0]!.id }),
    )
    await openList(page)
    timings.scrollToEnd.push(await page.evaluate(timeScrollToEnd, { rows: size, lastId: lastOf(drafts).id }))
  }
  log(
    `list at ${size}: ${JSON.stringify(timings, (_key, value: unknown) => (typeof value === 'number' ? Math.round(value) : value))}`,
  )
  await context.close()
  return timings
}

const lastOf = (drafts: SeededDraft[]) => drafts[drafts.length - 1]!

/** Reloads the list and returns the time from navigation to its first rows on screen. */
async function openList(page: Page): Promise<number> {
  await page.reload()
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__firstRowsAt !== undefined)
  return page.evaluate(() => (globalThis as unknown as PageGlobals).__firstRowsAt!)
}

// The functions below run in the page and are serialised, so each is self-contained. The node
// programme has no DOM types: the little of the DOM they use is typed here by hand.
interface PageElement {
  getAttribute(name: string): string | null
  querySelector(selector: string): PageElement | null
  dispatchEvent(event: unknown): boolean
  scrollTop: number
  scrollHeight: number
  value: string
}
interface PageGlobals {
  document: { querySelector(selector: string): PageElement | null }
  performance: { now(): number }
  requestAnimationFrame(callback: () => void): number
  setTimeout(callback: () => void, ms: number): number
  MutationObserver: new (callback: () => void) => {
    observe(target: unknown, options: Record<string, boolean>): void
    disconnect(): void
  }
  Event: new (type: string, init: { bubbles: boolean }) => unknown
  __firstRowsAt?: number
}

/** Init script: notes when the first loaded row is on screen (the frame after it is in the DOM). */
function markFirstRows() {
  const g = globalThis as unknown as PageGlobals
  const observer = new g.MutationObserver(() => {
    if (!g.document.querySelector('[role="row"][data-id]')) return
    observer.disconnect()
    g.requestAnimationFrame(() => (g.__firstRowsAt = g.performance.now()))
  })
  // An init script runs before the page has an <html> element: watch the document itself.
  observer.observe(g.document, { childList: true, subtree: true })
}

/** Types a search and times it until the grid shows the matching count and the newest match. */
async function timeSearch({ text, rows, firstId }: { text: string; rows: number; firstId: string }) {
  const g = globalThis as unknown as PageGlobals
  const grid = g.document.querySelector('[role="grid"]')!
  const input = g.document.querySelector('#sku-search')!
  const done = () =>
    grid.getAttribute('aria-rowcount') === String(rows + 1) &&
    grid.querySelector('[aria-rowindex="2"]')?.getAttribute('data-id') === firstId
  const start = g.performance.now()
  input.value = text
  input.dispatchEvent(new g.Event('input', { bubbles: true }))
  await new Promise<void>((resolve, reject) => {
    const observer = new g.MutationObserver(() => {
      if (!done()) return
      observer.disconnect()
      resolve()
    })
    observer.observe(grid, { childList: true, subtree: true, attributes: true })
    g.setTimeout(() => reject(new Error('the search never showed its results')), 60_000)
  })
  await new Promise((resolve) => g.requestAnimationFrame(() => resolve(undefined)))
  return g.performance.now() - start
}

/** Scrolls the list to its end and times it until the last draft's row is filled in. */
async function timeScrollToEnd({ rows, lastId }: { rows: number; lastId: string }) {
  const g = globalThis as unknown as PageGlobals
  const grid = g.document.querySelector('[role="grid"]')!
  const done = () => grid.querySelector(`[aria-rowindex="${rows + 1}"]`)?.getAttribute('data-id') === lastId
  const start = g.performance.now()
  grid.scrollTop = grid.scrollHeight
  await new Promise<void>((resolve, reject) => {
    const observer = new g.MutationObserver(() => {
      if (!done()) return
      observer.disconnect()
      resolve()
    })
    observer.observe(grid, { childList: true, subtree: true, attributes: true })
    g.setTimeout(() => reject(new Error('the end of the list never showed')), 60_000)
  })
  await new Promise((resolve) => g.requestAnimationFrame(() => resolve(undefined)))
  return g.performance.now() - start
}
