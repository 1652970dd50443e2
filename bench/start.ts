import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext } from '@playwright/test'
import { CONTENT_SECURITY_POLICY } from '#main/content-security-policy.ts'
import { thumbnailRoute } from '#node/thumbnail-route.ts'
import { startStaticServer } from '../test/e2e/harness/static-server.ts'
import { appContext, ensureBuilt, launchChromium, rendererDir, resourcesDir } from './app-browser.ts'
import { log, median, result, type BenchResult } from './result.ts'
import { seedDrafts } from './seed-drafts.ts'

/**
 * The start to the SKU list (issue #37), in the built renderer served with the app's CSP, in
 * Chromium: ms from navigation start until a person sees the list, and the long tasks before that.
 * Ready is when the frame that shows it has been drawn (its style, layout and paint done): a task
 * posted from the frame's animation callback, ahead of the page's own tasks. Taken at that
 * callback, before the frame's work, it left out the last frame's 20–60 ms, and so favoured a
 * start that draws everything in one last frame over one that draws the page and then its rows.
 *
 * - `start-cold`: the app's first run. A fresh browser context, so a fresh IndexedDB (the app
 *   creates its database) and nothing in the browser's cache; ready is the first-run list ("No SKU
 *   drafts yet" with the destination it will sync to) on screen.
 * - `start-warm`: the same context opened again after DRAFTS drafts were written: the database
 *   exists and is upgraded, the scripts are in the browser's cache and, since the app was opened
 *   once more before the measured openings, compiled code too (as the app's window has it after a
 *   few starts); ready is the first rows in the list, and each opening is checked afterwards to
 *   have drawn by then every row its list shows on screen (one row, the keyboard's, is no list).
 *   DRAFTS is more than a screenful, a first week's catalogue: the list reads a window whatever
 *   the count (the `open` line measures it at 100,000), so the number matters little.
 *
 * `start-cold-longest-task` and `start-warm-longest-task`: the longest task before ready in any
 * opening, against the goal of 50 ms as their baseline (as the import's `longest-task`); each
 * opening's long tasks are logged on stderr.
 *
 * The baseline of each is a page from the same origin that loads the same files and renders
 * nothing, cold and warm alike: the scripts and stylesheets the app's first cold opening fetched
 * before it was ready (its index.html's and the lazy chunks it went on to load), as modulepreload
 * and stylesheet links (fetched and compiled, never run); it is ready when all have loaded.
 */
const RUNS = 5
const DRAFTS = 300
const BASELINE_PAGE = 'start-baseline.html'
/** Longer than this, a task is a long task (the Long Tasks API's threshold), and the goal's limit. */
const LONG_TASK_MS = 50

interface Opening {
  /** From navigation start until the frame after the list (or the baseline's files) is drawn. */
  ready: number
  /** Durations of the long tasks that started before ready, in ms. */
  longTasks: number[]
  /** The scripts and stylesheets fetched before ready: their paths on the origin. */
  files: string[]
}

interface Openings {
  cold: Opening[]
  warm: Opening[]
}

/** `built`: the built renderer to measure (another build's copy, to compare two in one session). */
export async function startScenario(built = rendererDir): Promise<BenchResult[]> {
  if (built === rendererDir) ensureBuilt()
  // A copy of the built renderer with the baseline page beside index.html: the same origin, the
  // same file server (and headers) as the app's window, and nothing written into out/.
  const root = await mkdtemp(join(tmpdir(), 'catalog-desk-start-'))
  await cp(built, root, { recursive: true })
  const server = await startStaticServer(
    root,
    thumbnailRoute({ policy: CONTENT_SECURITY_POLICY, allowLocalAddresses: () => false, resourcesDir }),
  )
  const browser = await launchChromium()
  try {
    const app: Openings = { cold: [], warm: [] }
    const baseline: Openings = { cold: [], warm: [] }
    // Alternated, so the machine's load falls on both alike.
    for (let run = 0; run < RUNS; run++) {
      await openings(browser, `${server.url}#/skus`, app, true)
      if (run === 0) await writeFile(join(root, BASELINE_PAGE), baselinePage(app.cold[0]!.files))
      await openings(browser, `${server.url}${BASELINE_PAGE}`, baseline, false)
    }
    report('start-cold', app.cold, baseline.cold)
    report('start-warm', app.warm, baseline.warm)
    // Others' work on the machine moves every figure above (the baselines too): say how busy it was
    // (over the last 1, 5 and 15 minutes, this run's own work included).
    log(
      `start: load average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(', ')} on ${cpus().length} processors`,
    )
    return [
      result('list', 'start-cold', median(readies(app.cold)), median(readies(baseline.cold))),
      result('list', 'start-warm', median(readies(app.warm)), median(readies(baseline.warm))),
      // No raw counterpart: baseline = the goal (50 ms), so the ratio is the share of the goal.
      result('list', 'start-cold-longest-task', longest(app.cold), LONG_TASK_MS),
      result('list', 'start-warm-longest-task', longest(app.warm), LONG_TASK_MS),
    ]
  } finally {
    await browser.close()
    await server.close()
    await rm(root, { recursive: true, force: true })
  }
}

/** One cold opening in a fresh context, then (after seeding drafts for the app) two warm ones. */
async function openings(browser: Browser, url: string, into: Openings, isApp: boolean): Promise<void> {
  const context = await appContext(browser)
  await context.addInitScript(watchStart, { baselinePage: BASELINE_PAGE, longTaskMs: LONG_TASK_MS })
  try {
    const first = await context.newPage()
    into.cold.push(await open(first, url, isApp ? 'first-run' : 'baseline'))
    if (isApp) await seedDrafts(first, DRAFTS)
    await first.close()
    // Opened once more unmeasured: the browser keeps compiled code of scripts it has run twice.
    await warmOpen(context, url, isApp)
    for (let i = 0; i < 2; i++) into.warm.push(await warmOpen(context, url, isApp))
  } finally {
    await context.close()
  }
}

async function warmOpen(context: BrowserContext, url: string, isApp: boolean): Promise<Opening> {
  const page = await context.newPage()
  try {
    return await open(page, url, isApp ? 'rows' : 'baseline')
  } finally {
    await page.close()
  }
}

type Ready = 'first-run' | 'rows' | 'baseline'

async function open(
  page: Awaited<ReturnType<BrowserContext['newPage']>>,
  url: string,
  expected: Ready,
): Promise<Opening> {
  await page.goto(url)
  await page.waitForFunction(() => (globalThis as unknown as StartGlobals).__start?.readyAt !== undefined)
  const { readyAt, readyBy, rowsAtReady, tasks, fetched } = await page.evaluate(() => {
    const g = globalThis as unknown as StartGlobals
    return { ...g.__start!, fetched: g.performance.getEntriesByType('resource') }
  })
  if (readyBy !== expected) throw new Error(`Expected the page to show ${expected}, it showed ${readyBy}`)
  if (expected === 'rows') await expectScreenfulAt(page, rowsAtReady!)
  return {
    ready: readyAt!,
    longTasks: tasks.filter((task) => task.start < readyAt!).map((task) => task.duration),
    files: fetched
      .filter((entry) => entry.startTime < readyAt! && /\.(js|css)$/.test(new URL(entry.name).pathname))
      .map((entry) => new URL(entry.name).pathname),
  }
}

/**
 * Ready is called at the first rows in the list, which is the list a person sees only if they fill
 * its screen: once the page has settled, the rows it shows on screen (laid out now, not while
 * measured) must be no more than were drawn at ready.
 */
async function expectScreenfulAt(page: Awaited<ReturnType<BrowserContext['newPage']>>, drawn: number) {
  const onScreen = await page.evaluate(() => {
    const g = globalThis as unknown as StartGlobals
    const grid = g.document.querySelector('[role="grid"]')!.getBoundingClientRect()
    const bottom = Math.min(grid.bottom, g.innerHeight)
    return Array.from(g.document.querySelectorAll('[role="row"][data-id]')).filter((row) => {
      const box = row.getBoundingClientRect()
      return box.bottom > grid.top && box.top < bottom
    }).length
  })
  if (drawn < onScreen)
    throw new Error(`The list was called ready with ${drawn} rows drawn, and shows ${onScreen} on screen`)
}

const readies = (openings: Opening[]) => openings.map((opening) => opening.ready)
/** The longest task before ready in any of the openings; 0 when none was a long task. */
const longest = (openings: Opening[]) => Math.max(0, ...openings.flatMap((opening) => opening.longTasks))

function report(metric: string, app: Opening[], baseline: Opening[]): void {
  const describe = (openings: Opening[]) =>
    openings
      .map(
        ({ ready, longTasks }) =>
          `${Math.round(ready)} ms${longTasks.length ? ` [${longTasks.map(Math.round).join(', ')}]` : ''}`,
      )
      .join(', ')
  const over = app.filter((opening) => opening.longTasks.length > 0).length
  log(`${metric}: ${describe(app)} (long tasks before ready in brackets)`)
  log(`${metric} baseline: ${describe(baseline)}`)
  log(
    `${metric}: ${over} of ${app.length} openings had a long task before ready; the longest ${Math.round(longest(app))} ms (goal: none over ${LONG_TASK_MS} ms)`,
  )
}

/** The baseline page: `files` fetched and compiled (modulepreload) or applied (stylesheet), nothing run. */
function baselinePage(files: string[]): string {
  if (!files.some((file) => file.endsWith('.js')))
    throw new Error('The app loaded no script before it was ready')
  const links = files.map((file) =>
    file.endsWith('.css')
      ? `<link rel="stylesheet" crossorigin href="${file}">`
      : `<link rel="modulepreload" crossorigin href="${file}">`,
  )
  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="UTF-8">\n<title>Baseline</title>\n${links.join('\n')}\n</head>\n<body><div id="app"></div></body>\n</html>\n`
}

// The functions below run in the page and are serialised, so each is self-contained. The node
// programme has no DOM types: the little of the DOM they use is typed here by hand.
interface StartState {
  readyAt?: number
  readyBy?: Ready
  /** The rows with a draft in the DOM when ready was called. */
  rowsAtReady?: number
  tasks: Array<{ start: number; duration: number }>
}
interface PageNode {
  href: string
  getBoundingClientRect(): { top: number; bottom: number }
  addEventListener(type: string, listener: (event: { target: unknown }) => void, capture?: boolean): void
  querySelector(selector: string): PageNode | null
  querySelectorAll(selector: string): ArrayLike<PageNode>
}
interface StartGlobals {
  document: PageNode
  innerHeight: number
  location: { pathname: string }
  performance: {
    now(): number
    getEntriesByType(type: 'resource'): Array<{ name: string; startTime: number }>
  }
  requestAnimationFrame(callback: () => void): number
  scheduler: { postTask(callback: () => void, options: { priority: 'user-blocking' }): Promise<void> }
  MutationObserver: new (callback: () => void) => {
    observe(target: unknown, options: Record<string, boolean>): void
    disconnect(): void
  }
  PerformanceObserver: new (
    callback: (list: { getEntries(): Array<{ startTime: number; duration: number }> }) => void,
  ) => { observe(options: { type: string; buffered: boolean }): void }
  __start?: StartState
}

/**
 * Init script: records the long tasks, and when the page is ready (once the frame after has been
 * drawn): for the app, its first rows or its first-run list with the destination named; for the
 * baseline page, every file it links loaded.
 */
function watchStart({ baselinePage, longTaskMs }: { baselinePage: string; longTaskMs: number }) {
  const ROW = '[role="row"][data-id]'
  const g = globalThis as unknown as StartGlobals
  const state: StartState = { tasks: [] }
  g.__start = state
  new g.PerformanceObserver((list) => {
    for (const { startTime, duration } of list.getEntries())
      if (duration > longTaskMs) state.tasks.push({ start: startTime, duration })
  }).observe({ type: 'longtask', buffered: true })
  let marked = false
  const ready = (by: Ready) => {
    if (marked) return
    marked = true
    // The frame's style, layout and paint run after its animation callbacks: a task posted from
    // one runs once they are done.
    g.requestAnimationFrame(() =>
      g.scheduler.postTask(
        () => {
          state.readyBy = by
          state.readyAt = g.performance.now()
          state.rowsAtReady = g.document.querySelectorAll(ROW).length
        },
        { priority: 'user-blocking' },
      ),
    )
  }

  if (g.location.pathname.endsWith(`/${baselinePage}`)) {
    // Load events do not bubble, but the document sees them on their way down.
    const loaded = new Set<unknown>()
    const check = () => {
      const links = Array.from(
        g.document.querySelectorAll('link[rel="modulepreload"], link[rel="stylesheet"]'),
      )
      if (links.length > 0 && links.every((link) => loaded.has(link))) ready('baseline')
    }
    g.document.addEventListener('load', ({ target }) => (loaded.add(target), check()), true)
    g.document.addEventListener('error', ({ target }) => (loaded.add(target), check()), true)
    g.document.addEventListener('DOMContentLoaded', check)
    return
  }

  const observer = new g.MutationObserver(() => {
    const by: Ready | undefined = g.document.querySelector(ROW)
      ? 'rows'
      : g.document.querySelector('.list-start h2') && g.document.querySelector('.list-start__destination')
        ? 'first-run'
        : undefined
    if (!by) return
    observer.disconnect()
    ready(by)
  })
  // An init script runs before the page has an <html> element: watch the document itself.
  observer.observe(g.document, { childList: true, subtree: true })
}
