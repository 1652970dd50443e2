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
    return [
      ...loopbackLines,
      ...cdnLines,
      // ── Second line, for the lead: the preview's first frame of a 5 MB Draco model
      // (`largeDracoModel()` in scripts/large-draco-model.ts), with a baseline measured in this run.
      // Add its measurement here and push its `result('assets', 'preview-first-frame-5mb-draco', …)`.
    ]
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
