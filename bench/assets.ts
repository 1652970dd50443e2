import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { validateBytes } from 'gltf-validator'
import { main } from '#cli/main.ts'
import { assetFetchOptions } from '#node/asset-checks/asset-fetch.ts'
import { guardedFetch } from '#node/net/guarded-fetch.ts'
import { DEFAULT_BUDGETS } from '#shared/asset-checks/budgets.ts'
import {
  markedGlb,
  pmndrsModel,
  serveAssets,
  type AssetServer,
  type PmndrsModel,
  type Served,
} from '../test/unit/asset-checks/asset-files.ts'
import type { Browser, Page } from '@playwright/test'
import { createPreviewAssetLoader } from '#node/preview-assets.ts'
import { transcodeKtx2 } from '#node/ktx2-transcoder.ts'
import type { PreviewAssetRequest } from '#shared/ipc.ts'
import { largeDracoModel } from '../scripts/large-draco-model.ts'
import { appContext, ensureBuilt, launchChromium, serveRenderer } from './app-browser.ts'
import { previewPaint } from './preview-paint.ts'
import { log, median, result, type BenchResult } from './result.ts'

/**
 * The asset checks (issue #19).
 *
 * `check-assets-1000-skus-50-models`: `catalog-desk check-assets` (in this process, through the
 * CLI's `main`, its text output discarded) over 1,000 SKUs that share 50 models served on
 * loopback, against the least that work could cost: fetching the 50 models once and validating
 * each with the glTF-Validator, as many at once as check-assets takes by default (4), fetched
 * through the guarded fetcher as any check of an address from data must be. Goal ≤ 1.2: what
 * check-assets adds (reading 1,000 SKUs, judging and writing 1,000 results) is small beside the
 * models, each fetched and validated once however many SKUs name it (each round counts the
 * server's requests: 50 each, or it fails). `…-vs-plain-fetch`: the same against Node's own fetch,
 * which guards nothing, so the fetcher's own price stays visible. `…-cdn-20ms`: the same with
 * every answer held back 20 ms, a nearby CDN's round trip: what a person's run looks like, where
 * waiting for the network hides what check-assets adds.
 *
 * The models are copies of the real CC0 Draco GLBs of @pmndrs/assets (bunny, suzi and pmndrs, the
 * last with its 2048×2048 JPEG), each with a mark in its JSON so that the 50 addresses are 50
 * distinct files. Seven rounds, each of check-assets and its baselines going first in turn, after
 * one of each to warm up; the medians are compared.
 */
const SKUS = 1_000
const MODELS = 50
const ROUNDS = 7
/** A CDN's round trip, for the line that models one (a nearby edge answers in 10–30 ms). */
const CDN_DELAY_MS = 20
const CONCURRENCY = 4
const ROOT = fileURLToPath(new URL('../', import.meta.url))
const SOURCES: PmndrsModel[] = ['bunny', 'suzi', 'pmndrs']

/** A SKU of the contract's example, naming one model and no picture (nothing to fetch but the models). */
function skuFile(baseUrl: string): string {
  const template = (
    JSON.parse(readFileSync(join(ROOT, 'test/fixtures/bulk-upload-request.json'), 'utf8')) as {
      skus: Record<string, unknown>[]
    }
  ).skus[0]!
  const skus = Array.from({ length: SKUS }, (_, index) => {
    const arEffect = structuredClone(template.arEffect) as {
      envSettings: Record<string, unknown>
      effectAssets3D: { id: string; url: string }[]
    }
    delete arEffect.envSettings.environmentImage
    arEffect.effectAssets3D = [{ id: 'frame', url: `${baseUrl}/models/${index % MODELS}.glb` }]
    const rest = { ...template }
    delete rest.productImage
    return { ...rest, barcode: `BENCH-${String(index).padStart(5, '0')}`, arEffect }
  })
  return JSON.stringify({ skus })
}

async function timeCheckAssets(file: string): Promise<number> {
  const quiet = { write: () => true }
  const started = performance.now()
  const code = await main(['check-assets', file, '--allow-local', '--concurrency', String(CONCURRENCY)], {
    stdout: quiet,
    stderr: quiet,
    cwd: ROOT,
  })
  const elapsed = performance.now() - started
  if (code !== 0) throw new Error(`check-assets exited ${code}: the bench's models should all be valid`)
  return elapsed
}

/**
 * A baseline: each of the 50 models fetched once and validated, `CONCURRENCY` at a time; fetched
 * through the guarded fetcher (the one way the app may fetch an address from data, so what any
 * check of these models pays), or with Node's own fetch (undici), which guards nothing.
 */
async function timeFetchAndValidate(baseUrl: string, client: 'guarded' | 'plain'): Promise<number> {
  const options = assetFetchOptions(
    { allowLocalAddresses: () => true },
    'model',
    DEFAULT_BUDGETS.modelBytes.maximum,
  )
  const started = performance.now()
  let next = 0
  const worker = async () => {
    while (next < MODELS) {
      const index = next++
      const address = `${baseUrl}/models/${index}.glb`
      const bytes =
        client === 'guarded'
          ? (await guardedFetch(address, options)).bytes
          : new Uint8Array(await (await fetch(address)).arrayBuffer())
      const report = (await validateBytes(bytes, { writeTimestamp: false, maxIssues: 200 })) as {
        issues: { numErrors: number }
      }
      if (report.issues.numErrors > 0) throw new Error(`model ${index} is not valid`)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return performance.now() - started
}

export async function assetsScenario(): Promise<BenchResult[]> {
  const files: Record<string, Served> = {}
  const sources = await Promise.all(SOURCES.map((name) => pmndrsModel(name)))
  for (let i = 0; i < MODELS; i++) {
    files[`/models/${i}.glb`] = {
      body: markedGlb(sources[i % sources.length]!, { copy: i }),
      type: 'model/gltf-binary',
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'catalog-desk-bench-assets-'))
  try {
    const loopback = await serveAssets(files)
    const loopbackLines = await compare(loopback, dir, 'loopback', [
      ['check-assets-1000-skus-50-models', 'guarded'],
      ['check-assets-1000-skus-50-models-vs-plain-fetch', 'plain'],
    ]).finally(() => loopback.close())
    const cdn = await serveAssets(files, '127.0.0.1', { delayMs: CDN_DELAY_MS })
    const cdnLines = await compare(cdn, dir, `${CDN_DELAY_MS} ms a request`, [
      [`check-assets-1000-skus-50-models-cdn-${CDN_DELAY_MS}ms`, 'guarded'],
    ]).finally(() => cdn.close())
    return [...loopbackLines, ...cdnLines, await previewFirstFrame(), ...(await previewPaint())]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** check-assets against each baseline named, on `server`: warmed up, then `ROUNDS` rounds, each going first in turn. */
async function compare(
  server: AssetServer,
  dir: string,
  what: string,
  lines: [metric: string, client: 'guarded' | 'plain'][],
): Promise<BenchResult[]> {
  const file = join(dir, `skus-${server.url.split(':').at(-1)}.json`)
  await writeFile(file, skuFile(server.url))
  log(`assets: ${SKUS} SKUs sharing ${MODELS} models on ${server.url} (${what}); warming up`)
  await timeCheckAssets(file)
  for (const [, client] of lines) await timeFetchAndValidate(server.url, client)
  const checks: number[] = []
  const baselines: number[][] = lines.map(() => [])
  const steps = [
    async () => checks.push(await timeCheckAssets(file)),
    ...lines.map(
      ([, client], at) =>
        async () =>
          baselines[at]!.push(await timeFetchAndValidate(server.url, client)),
    ),
  ]
  for (let round = 0; round < ROUNDS; round++) {
    server.seen.length = 0
    for (let step = 0; step < steps.length; step++) await steps[(round + step) % steps.length]!()
    // Each model once by each: anything more is a fetch the dedupe missed.
    if (server.seen.length !== steps.length * MODELS) {
      throw new Error(`round ${round + 1}: ${server.seen.length} requests, not ${steps.length * MODELS}`)
    }
    const times = lines.map(([, client], at) => `${baselines[at]!.at(-1)!.toFixed(0)} ms (${client})`)
    log(
      `assets: round ${round + 1}: check-assets ${checks.at(-1)!.toFixed(0)} ms, fetch and validate ${times.join(', ')}`,
    )
  }
  return lines.map(([metric], at) => result('assets', metric, median(checks), median(baselines[at]!)))
}

// --- The preview's first frame of a large Draco model ------------------------------------------

/** Rounds of each model, after one of each to warm up (the Draco decoder is compiled once a session). */
const FRAME_ROUNDS = 5
const SAMPLE_GLB = join(ROOT, 'resources/preview/sample-glasses.glb')

/**
 * `preview-first-frame-5mb-draco`: in the built renderer in Chromium, with main's own preview
 * loader behind `window.api`, the time from typing a model's address in the SKU editor to the
 * first frame that shows it (the caption names it and the stage is no longer busy): a 5 MB Draco
 * model (`largeDracoModel()`, 2.9 million triangles), against the same for the bundled sample
 * glasses (90 KB, no compression) as the baseline: what a large compressed model costs the person
 * beyond the preview's own round trip. The value is in milliseconds; both include the half second
 * the editor waits for an address being typed to settle before it fetches.
 */
async function previewFirstFrame(): Promise<BenchResult> {
  ensureBuilt()
  const { glb, triangles } = await largeDracoModel()
  log(
    `assets: preview first frame of a ${(glb.byteLength / 1e6).toFixed(1)} MB Draco model (${triangles} triangles)`,
  )
  const sample = new Uint8Array(readFileSync(SAMPLE_GLB))
  // A file name of its own each round: the caption names it (so a round never matches the one
  // before), and the page keeps what it loaded for the session by address.
  const files: Record<string, Served> = {}
  for (let round = 0; round <= FRAME_ROUNDS; round++) {
    files[`/large-${round}.glb`] = { body: glb, type: 'model/gltf-binary' }
    files[`/sample-${round}.glb`] = { body: sample, type: 'model/gltf-binary' }
  }
  const models = await serveAssets(files)
  const renderer = await serveRenderer()
  const browser = await launchChromium()
  try {
    const page = await editorPage(browser, renderer.url)
    const times = { large: [] as number[], sample: [] as number[] }
    for (let round = 0; round <= FRAME_ROUNDS; round++) {
      for (const name of round % 2 ? (['sample', 'large'] as const) : (['large', 'sample'] as const)) {
        const file = `${name}-${round}.glb`
        const ms = await timeFirstFrame(page, `${models.url}/${file}`, file)
        if (round > 0) times[name].push(ms)
        log(`assets: round ${round}${round ? '' : ' (warm-up)'}: ${name} ${ms.toFixed(0)} ms`)
      }
    }
    return result('assets', 'preview-first-frame-5mb-draco', median(times.large), median(times.sample))
  } finally {
    await browser.close()
    await renderer.close()
    await models.close()
  }
}

/** A new SKU draft in the editor, its preview showing the sample, with one 3D asset to point elsewhere. */
async function editorPage(browser: Browser, url: string): Promise<Page> {
  const loader = createPreviewAssetLoader({
    resourcesDir: join(ROOT, 'resources'),
    // The models are served on loopback, as a person testing with local files would allow.
    allowLocalAddresses: () => true,
  })
  const context = await appContext(browser, {
    loadPreviewAsset: (request: PreviewAssetRequest) => loader.load(request),
    transcodeTexture: (bytes: Uint8Array) => transcodeKtx2(bytes),
  })
  const page = await context.newPage()
  await page.goto(url)
  await page.getByRole('button', { name: 'New SKU' }).click()
  await page.getByRole('button', { name: 'Add 3D asset' }).click()
  await page.getByLabel('Asset ID').fill('frame')
  await stageIdle(page)
  return page
}

async function timeFirstFrame(page: Page, address: string, name: string): Promise<number> {
  const started = performance.now()
  // Pasted, not typed: the preview waits for typing to pause, which is not what is measured.
  await page.getByLabel('Model address').fill(address)
  await page
    .getByTestId('preview-model')
    .filter({ hasText: `Showing ${name}` })
    .waitFor({ timeout: 120_000 })
  await stageIdle(page)
  return performance.now() - started
}

/** Nothing loading, and the frame asked for drawn. */
async function stageIdle(page: Page) {
  await page.locator('[data-busy="false"]').waitFor({ timeout: 120_000 })
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const raf = (globalThis as unknown as { requestAnimationFrame(callback: () => void): number })
          .requestAnimationFrame
        raf(() => done())
      }),
  )
}
