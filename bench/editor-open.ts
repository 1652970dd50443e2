import type { Browser, Page } from '@playwright/test'
import { createPreviewAssetLoader } from '#node/preview-assets.ts'
import { transcodeKtx2 } from '#node/ktx2-transcoder.ts'
import type { PreviewAssetRequest } from '#shared/ipc.ts'
import { largeDracoModel } from '../scripts/large-draco-model.ts'
import {
  longestOf,
  longTasksSince,
  longTasksText,
  pageNow,
  watchLongTasks,
} from '../test/e2e/harness/long-tasks.ts'
import { serveAssets } from '../test/unit/asset-checks/asset-files.ts'
import { appContext, resourcesDir } from './app-browser.ts'
import { log, median, result, type BenchResult } from './result.ts'
import { seedDrafts, type SeededDraft } from './seed-drafts.ts'
import { waitUntilSettled } from './settle.ts'

/**
 * `editor-open` (issue #37): opening a draft from the list at 100,000 drafts, from the click on its
 * name until the editor's first field takes input: the Product name field is there, focused, and a
 * key pressed in it right away has been taken (its input event), so the page's thread was free.
 * `editor-open-frame` is the same open until the frame after that key: in software WebGL (these
 * machines, Chromium with no GPU) the display compositor shares the GPU process with the preview's
 * drawing, so while a 2.9-million-triangle model is drawn frames wait, up to a second, though the
 * page's thread is free; with a GPU, the drawing runs on it. The draft's 3D asset is a 5 MB Draco model (`largeDracoModel()`, 2.9 million
 * triangles) served on loopback, loaded through main's own preview loader run here; the baseline is
 * the same editor for a draft with no 3D asset, whose preview shows the bundled sample glasses.
 * Goal: under 300 ms, ratio ≤ 1.2. Each open is the first of a page load (the list reloaded
 * before it, so nothing of the model is kept), the two drafts in turn, after one of each to warm
 * up; medians compared. The long tasks from the click until the preview has drawn its model are
 * logged on stderr, and `editor-open-longest-task` is the longest of them in any open of the model's
 * draft, against the goal of 50 ms as its baseline (no raw counterpart: the ratio is the share of
 * the goal), as the import's `longest-task` is.
 */
const SIZE = 100_000
const OPENS = 5
/** The two drafts opened: the newest two, on the list's first screen, both of the complete template. */
const WITH_MODEL = 0
const WITHOUT_MODEL = 1
const MODEL_PATH = '/models/large.glb'
/** The key typed into Product name: no seeded name holds it, so its input event is told apart. */
const KEY = 'q'
const LONG_TASK_GOAL_MS = 50
/** A 5 MB model drawn in software WebGL on a busy two-core machine takes seconds; allow plenty. */
const DRAWN_TIMEOUT_MS = 120_000

export async function editorOpen(browser: Browser, url: string, photos: string): Promise<BenchResult[]> {
  const { glb, triangles } = await largeDracoModel()
  const models = await serveAssets({ [MODEL_PATH]: { body: glb, type: 'model/gltf-binary' } })
  log(`editor-open: a ${(glb.byteLength / 1e6).toFixed(1)} MB Draco model of ${triangles} triangles`)
  const loader = createPreviewAssetLoader({
    resourcesDir,
    // The model is served on loopback, as a person testing with local files would allow.
    allowLocalAddresses: () => true,
  })
  const context = await appContext(browser, {
    loadPreviewAsset: (request: PreviewAssetRequest) => loader.load(request),
    transcodeTexture: (bytes: Uint8Array) => transcodeKtx2(bytes),
  })
  await watchLongTasks(context)
  try {
    const page = await context.newPage()
    await page.goto(`${url}#/skus`)
    await page.getByText('No SKU drafts yet').waitFor()
    const seededAt = Date.now()
    const drafts = await seedDrafts(page, SIZE, {
      photos,
      models: { [WITH_MODEL]: `${models.url}${MODEL_PATH}`, [WITHOUT_MODEL]: '' },
    })
    log(`editor-open: ${SIZE} drafts seeded in ${Date.now() - seededAt} ms`)
    await waitUntilSettled(`editor-open at ${SIZE}`)
    const opened = { model: [] as number[], none: [] as number[] }
    const framed = { model: [] as number[], none: [] as number[] }
    const longestWithModel: number[] = []
    for (let round = 0; round <= OPENS; round++) {
      for (const kind of round % 2 ? (['none', 'model'] as const) : (['model', 'none'] as const)) {
        const draft = drafts[kind === 'model' ? WITH_MODEL : WITHOUT_MODEL]!
        const open = await timeOpen(
          page,
          `${url}#/skus`,
          draft,
          kind === 'model' ? 'large.glb' : 'the sample glasses',
        )
        if (round > 0) opened[kind].push(open.ms)
        if (round > 0) framed[kind].push(open.frame)
        if (round > 0 && kind === 'model') longestWithModel.push(open.longest)
        log(
          `editor-open: round ${round}${round ? '' : ' (warm-up)'}, ${kind === 'model' ? '5 MB model' : 'no model'}: ` +
            `input taken at ${Math.round(open.ms)} ms, shown at ${Math.round(open.frame)} ms, model drawn at ${Math.round(open.drawn)} ms; ${open.longTasks}`,
        )
      }
    }
    return [
      result('list', 'editor-open', median(opened.model), median(opened.none)),
      result('list', 'editor-open-frame', median(framed.model), median(framed.none)),
      result('list', 'editor-open-longest-task', Math.max(...longestWithModel), LONG_TASK_GOAL_MS),
    ]
  } finally {
    await context.close()
    await models.close()
  }
}

interface Open {
  /** From the click on the draft's name to the key typed into Product name taken (its input event). */
  ms: number
  /** From the click to the frame after that input event. */
  frame: number
  /** From the click to the frame after the preview said it shows `shown`. */
  drawn: number
  /** The longest task of the page's main thread in that time, ms (0 when none reached 50 ms). */
  longest: number
  longTasks: string
}

/** Loads the list afresh, opens `draft` from it and types into its first field; waits until `shown` is drawn. */
async function timeOpen(page: Page, list: string, draft: SeededDraft, shown: string): Promise<Open> {
  await page.goto(list)
  await page.reload()
  await page
    .locator('.page__lede')
    .filter({ hasText: `${SIZE.toLocaleString('en-US')} drafts` })
    .waitFor()
  // By its row: the name changes as the key typed in it is saved.
  const link = page.locator(`[role="row"][data-id="${draft.id}"]`).getByRole('link')
  await link.waitFor()
  await page.evaluate(nextFrame)
  await page.evaluate(watchEcho, KEY)
  const openedAt = await pageNow(page)
  await link.click()
  // The key goes to the field as soon as it is there: no check of Playwright's (they wait for
  // animation frames, which software WebGL delays: see `editor-open-frame` above).
  await page.waitForFunction(focusProductName, null, { polling: 5, timeout: DRAWN_TIMEOUT_MS })
  await page.keyboard.press(KEY)
  await page.waitForFunction(() => (globalThis as unknown as EchoGlobals).__echoedAt !== undefined, null, {
    timeout: DRAWN_TIMEOUT_MS,
  })
  const { takenAt, echoedAt } = await page.evaluate(() => {
    const g = globalThis as unknown as EchoGlobals
    return { takenAt: g.__takenAt!, echoedAt: g.__echoedAt! }
  })
  await page
    .getByTestId('preview-model')
    .filter({ hasText: `Showing ${shown}` })
    .waitFor({ timeout: DRAWN_TIMEOUT_MS })
  // Nothing loading, and drawn: a preview that says whether its frame is drawn (data-drawn) says so.
  await page
    .locator('[role="application"][data-busy="false"]:not([data-drawn="false"])')
    .waitFor({ timeout: DRAWN_TIMEOUT_MS })
  await page.evaluate(nextFrame)
  const drawnAt = await pageNow(page)
  const tasks = await longTasksSince(page, openedAt)
  return {
    ms: takenAt - openedAt,
    frame: echoedAt - openedAt,
    drawn: drawnAt - openedAt,
    longest: longestOf(tasks)?.duration ?? 0,
    longTasks: longTasksText(tasks, openedAt),
  }
}

// The functions below run in the page and are serialised, so each is self-contained. The node
// programme has no DOM types: the little of the DOM they use is typed here by hand.
interface EchoGlobals {
  document: {
    addEventListener(
      type: string,
      listener: (event: { data?: string | null }) => void,
      capture: boolean,
    ): void
  }
  performance: { now(): number }
  requestAnimationFrame(callback: () => void): number
  __takenAt?: number
  __echoedAt?: number
}

/**
 * Notes the first input event that types `key` and the frame after it (the page is reloaded
 * before each open).
 */
function watchEcho(key: string) {
  const g = globalThis as unknown as EchoGlobals
  g.__takenAt = undefined
  g.__echoedAt = undefined
  g.document.addEventListener(
    'input',
    (event) => {
      if (event.data !== key || g.__takenAt !== undefined) return
      g.__takenAt = g.performance.now()
      g.requestAnimationFrame(() => (g.__echoedAt ??= g.performance.now()))
    },
    true,
  )
}

/** Focuses the editor's Product name field once it is there; says whether it was. */
function focusProductName(): boolean {
  const g = globalThis as unknown as {
    document: {
      querySelectorAll(selector: string): Iterable<{ textContent: string | null; htmlFor: string }>
      getElementById(id: string): { focus(): void } | null
    }
  }
  for (const label of g.document.querySelectorAll('label')) {
    if (label.textContent?.trim() !== 'Product name') continue
    const field = g.document.getElementById(label.htmlFor)
    field?.focus()
    return !!field
  }
  return false
}

/** Resolves after the next frame (and the one after: the first may already be under way). */
function nextFrame() {
  const g = globalThis as unknown as EchoGlobals
  return new Promise<void>((done) => g.requestAnimationFrame(() => g.requestAnimationFrame(() => done())))
}
