import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { createPreviewAssetLoader } from '#node/preview-assets.ts'
import type { PreviewAssetRequest } from '#shared/ipc.ts'
import { faceOf, runFaceWorker, sampleFaces, type FaceWorkerRun } from '../test/e2e/harness/face-worker.ts'
import { serveAssets } from '../test/unit/asset-checks/asset-files.ts'
import { appContext, ensureBuilt, launchChromium, resourcesDir, serveRenderer } from './app-browser.ts'
import { log, median, result, type BenchResult } from './result.ts'
import { seedDrafts } from './seed-drafts.ts'

/**
 * The try-on's face landmarks (issue #39), in the built app's worker, in Chromium, on this
 * machine's CPU (tfjs's WebAssembly backend, SIMD, one thread), on the sample portraits
 * (resources/faces/, 500×500 and 400×400).
 *
 * `try-on-landmarks-photo`: one still photo, from its decoding (createImageBitmap of the file's
 * bytes) to the worker's answer with the face's 478 points, the face searched afresh (no cache), as
 * for a photo the user picks. `try-on-landmarks-frame`: the same picture again with the box cache on,
 * as for camera frames that look alike: the face's box is taken from the frame before and only the
 * mesh and the irises run. Both against the same round trip to the worker with no detection (the
 * picture decoded, sent, closed, answered), so the ratio is what finding the face adds.
 *
 * After the model is loaded (its load time goes to stderr). Each portrait ROUNDS times, the first
 * round dropped (the first run of each kernel), the median over all the rest.
 *
 * `try-on-contact-sheet`: the list's "Try on" for 50 eyewear drafts (the list filtered to eyewear,
 * 51 matching, the sheet's cap of 50) with the bundled sample glasses as their 3D asset (served on
 * loopback, through main's own preview loader run here), on the first three sample faces (the
 * page's faces.json answered with those three): from the click until every one of the 150 tiles is
 * drawn. Against a one-draft sheet's time × 50 (its median of three, after one to warm up, measured
 * in the same page): each SKU tried on the same faces on its own sheet. The ratio is what one
 * sheet for 50 saves or costs over that: the faces found once, one worker, one model parse each.
 */
const ROUNDS = 6

function times(run: FaceWorkerRun): number[] {
  if (run.load.type !== 'loaded') throw new Error(`The face model did not load: ${JSON.stringify(run.load)}`)
  return run.answers.flatMap((rounds) => rounds.slice(1).map(({ ms }) => ms))
}

export async function tryOnScenario(): Promise<BenchResult[]> {
  ensureBuilt()
  const server = await serveRenderer()
  const browser = await launchChromium()
  try {
    const context = await appContext(browser)
    const page = await context.newPage()
    await page.goto(server.url)
    const pictures = sampleFaces().map((face) => ({ path: `./faces/${face.file}` }))
    const run = (message: 'detect' | 'frame' | 'echo') =>
      runFaceWorker(page, { pictures, message, repeat: ROUNDS })

    const echo = await run('echo')
    const photo = await run('detect')
    const frame = await run('frame')
    for (const detected of [photo, frame])
      for (const rounds of detected.answers)
        for (const { answer } of rounds) if (!faceOf(answer)) throw new Error('A sample portrait had no face')
    const loads = [echo, photo, frame].map((each) => (each.load.type === 'loaded' ? each.load.ms : NaN))
    log(`try-on: model load (runtime and three models) ${loads.map((ms) => ms.toFixed(0)).join(', ')} ms`)

    const baseline = median(times(echo))
    return [
      result('try-on', 'try-on-landmarks-photo', median(times(photo)), baseline),
      result('try-on', 'try-on-landmarks-frame', median(times(frame)), baseline),
      await contactSheet(browser, server.url),
    ]
  } finally {
    await browser.close()
    await server.close()
  }
}

const SHEET_SKUS = 50
const SHEET_FACES = 3
/** Eyewear is three drafts in five of the seeded catalogue: 84 drafts hold 51 eyewear, one past the cap. */
const SEEDED = 84
const MODEL_PATH = '/models/frame.glb'
/** 150 tiles in software WebGL on a busy two-core machine: minutes, not seconds. */
const SHEET_TIMEOUT_MS = 600_000

/** Opens the sheet with `open` (a click), waits until every tile is drawn, closes it; the ms it took. */
async function timeSheet(page: Page, open: () => Promise<void>, tiles: number): Promise<number> {
  const sheet = page.getByRole('dialog', { name: /^Try on:/ })
  const started = performance.now()
  await open()
  await sheet.and(page.locator('[data-stage="done"]')).waitFor({ timeout: SHEET_TIMEOUT_MS })
  const ms = performance.now() - started
  const drawn = await sheet.locator('[data-testid="sheet-tile"][data-state="drawn"]').count()
  if (drawn !== tiles) throw new Error(`The contact sheet drew ${drawn} tiles, not ${tiles}`)
  await sheet.getByRole('button', { name: 'Close' }).click()
  await sheet.waitFor({ state: 'hidden' })
  return ms
}

async function contactSheet(browser: Browser, url: string): Promise<BenchResult> {
  const models = await serveAssets({
    [MODEL_PATH]: {
      body: readFileSync(join(resourcesDir, 'preview/sample-glasses.glb')),
      type: 'model/gltf-binary',
    },
  })
  try {
    // The model is served on loopback, as a person testing with local files would allow.
    const loader = createPreviewAssetLoader({ resourcesDir, allowLocalAddresses: () => true })
    const context = await appContext(browser, {
      loadPreviewAsset: (request: PreviewAssetRequest) => loader.load(request),
    })
    const page = await context.newPage()
    const faces = sampleFaces().slice(0, SHEET_FACES)
    await page.route('**/faces/faces.json', (route) => route.fulfill({ json: faces }))
    await page.goto(`${url}#/skus`)
    await page.getByText('No SKU drafts yet').waitFor()
    const model = `${models.url}${MODEL_PATH}`
    await seedDrafts(page, SEEDED, {
      models: Object.fromEntries(Array.from({ length: SEEDED }, (_, i) => [i, model])),
    })
    await page.reload()
    await page.getByLabel('Category', { exact: true }).selectOption('eyewear')

    // One draft (the first row, selected), on its own sheet: once to warm up, then three times.
    const one: number[] = []
    await page.locator('[role="grid"] [role="row"][aria-rowindex="2"]').click()
    const tryOnSelected = () => page.getByRole('button', { name: 'Try on…', exact: true }).click()
    for (let round = 0; round < 4; round++) {
      const ms = await timeSheet(page, tryOnSelected, SHEET_FACES)
      if (round > 0) one.push(ms)
    }
    await page.getByRole('button', { name: 'Clear selection' }).click()

    const all = await timeSheet(
      page,
      () => page.getByRole('button', { name: /^Try them on/ }).click(),
      SHEET_SKUS * SHEET_FACES,
    )
    log(
      `try-on-contact-sheet: ${SHEET_SKUS} × ${SHEET_FACES} tiles in ${all.toFixed(0)} ms; ` +
        `one draft's sheet ${one.map((ms) => ms.toFixed(0)).join(', ')} ms`,
    )
    return result('try-on', 'try-on-contact-sheet', all, median(one) * SHEET_SKUS)
  } finally {
    await models.close()
  }
}
