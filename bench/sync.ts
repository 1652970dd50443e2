import { spawn, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import https from 'node:https'
import { closeSync, fdatasyncSync, openSync, readFileSync, writeSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import v8 from 'node:v8'
import vm from 'node:vm'
import got from 'got'
import { openJournal } from '#cli/push/journal-outbox.ts'
import { clientTransport, createServiceClient } from '#node/service/client.ts'
import { DEFAULT_TIMEOUTS, PROFILE_LIMITS } from '#shared/profile.ts'
import { BULK_UPLOAD_PATH } from '#shared/service/endpoints.ts'
import { sleep } from '#shared/service/resend.ts'
import { createSyncRun } from '#shared/sync/engine.ts'
import { log, median, result, type BenchResult } from './result.ts'

/**
 * Batch sync, in two parts.
 *
 * The engine's own cost: 10,000 SKUs to the sandbox over loopback, 50 a request, one request at a
 * time, through the real engine with the CLI's journal outbox (a `begin` line appended and flushed
 * to disk before every request, an `end` line after it, flushed with the next) and the real got
 * client, against a raw loop posting the same batches with got (keep-alive off, as the client)
 * with the same durability (one line written and flushed before each request), and against the
 * raw loop without it, so the price of durability stays visible. Then the engine's peak heap at
 * 10,000 and 100,000 SKUs: SKUs are made on demand by index, so a flat figure shows the engine
 * streams.
 *
 * Adaptive concurrency: 10,000 SKUs against a sandbox with a capacity model (each request takes
 * `CAPACITY.latencyMs`, `CAPACITY.slots` at once, 429 with Retry-After 1 beyond them), the engine
 * with adaptive concurrency up to the profiles' maximum against the best fixed concurrency found
 * by a sweep in the same run; concurrency 1 (the profiles' default) beside it.
 *
 * The sandboxes run in child processes so their memory (they keep every SKU received) does not count.
 */
const SKUS = 10_000
const LARGE = 100_000
const BATCH = 50
/** Rounds of each, alternating which goes first; the medians are compared (the machines are noisy). */
const ROUNDS = 5
const TOKEN = 'bench-token'
const ROOT = fileURLToPath(new URL('../', import.meta.url))

const template = (
  JSON.parse(readFileSync(join(ROOT, 'test/fixtures/bulk-upload-request.json'), 'utf8')) as {
    skus: Record<string, unknown>[]
  }
).skus[0]!

/** The SKU at an index, made when asked for: nothing holds all of them. */
const skuAt = (index: number) => ({ ...template, barcode: `BENCH-${String(index).padStart(7, '0')}` })

interface ChildSandbox {
  url: string
  child: ChildProcess
}

/**
 * The service's load test, scaled down: 2.8 s a batch there, 200 ms here (so a sweep of fixed
 * levels takes minutes, not hours), Retry-After 1 s as there. Four at once.
 */
const CAPACITY = { slots: 4, latencyMs: 200 }

async function startChildSandbox(extra: string[] = []): Promise<ChildSandbox> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'scripts/cli.js'),
      'sandbox',
      '--port',
      '0',
      '--token',
      TOKEN,
      '--max-batch',
      '1000',
      ...extra,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const url = await new Promise<string>((resolve, reject) => {
    let text = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      const found = /Sandbox listening on (http:\/\/\S+)/.exec(text)
      if (found) resolve(found[1]!)
    })
    child.once('exit', (code) => reject(new Error(`The sandbox exited (${code}) before listening`)))
  })
  return { url, child }
}

async function clearSandbox(url: string): Promise<number> {
  const received = (await got(`${url}/__sandbox/received`).json()) as { skus: unknown[] }
  await got.delete(`${url}/__sandbox/received`)
  return received.skus.length
}

/**
 * The raw work: the same batches, posted one after another with got. With `journal`, one JSON line
 * naming the batch is written to it and flushed to disk (fdatasync) before each request, the
 * durability the engine's journal gives; without, nothing is recorded.
 */
async function rawLoop(url: string, count: number, journal?: string): Promise<number> {
  const agent = { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) }
  const fd = journal === undefined ? undefined : openSync(journal, 'a')
  const started = performance.now()
  for (let from = 0; from < count; from += BATCH) {
    const skus = []
    for (let index = from; index < Math.min(count, from + BATCH); index++) skus.push(skuAt(index))
    if (fd !== undefined) {
      writeSync(fd, JSON.stringify({ type: 'begin', from, to: from + skus.length, at: Date.now() }) + '\n')
      fdatasyncSync(fd)
    }
    const response = await got.post(url + BULK_UPLOAD_PATH, {
      body: JSON.stringify({ skus }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      agent,
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
    })
    if (response.statusCode !== 201) throw new Error(`The raw loop got ${response.statusCode}`)
  }
  const ms = performance.now() - started
  if (fd !== undefined) closeSync(fd)
  if (journal !== undefined) await rm(journal, { force: true })
  return ms
}

/**
 * A full collection on demand, for the memory figures only (the timed runs never call it): a
 * sampled heapUsed is otherwise mostly garbage not yet collected, which says nothing of streaming.
 */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc')
  return vm.runInNewContext('gc') as () => void
}

/**
 * The engine with the journal outbox; returns the time and the peak heap seen while it ran. With
 * `gc`, every sample follows a full collection, so the peak is what the run holds live.
 */
interface Sending {
  concurrency: number
  adaptive: boolean
}

const ONE_AT_A_TIME: Sending = { concurrency: 1, adaptive: true }

async function engineRun(
  url: string,
  count: number,
  dir: string,
  gc?: () => void,
  sending: Sending = ONE_AT_A_TIME,
): Promise<{ ms: number; peakHeap: number; limits: number[]; refused: number }> {
  const path = join(dir, `journal-${count}-${Date.now()}.jsonl`)
  const journal = await openJournal({ path, baseUrl: url, kind: 'skus' })
  // A push's creations: every SKU new there, keyed by barcode. Its fingerprint is the input's
  // (computed as the file is read, not by the run): the index stands in for it here.
  const items = Array.from({ length: count }, (_, index) => ({
    key: skuAt(index).barcode,
    index,
    label: `BENCH-${index}`,
  }))
  const outbox = journal.outbox({
    action: 'create',
    items,
    send: (item) => skuAt(item.index),
    stands: (item) => ({ payload: skuAt(item.index), fingerprint: String(item.index) }),
  })
  const transport = clientTransport(
    createServiceClient({
      baseUrl: url,
      tokenEncoding: 'raw',
      timeouts: DEFAULT_TIMEOUTS,
      getToken: async () => TOKEN,
    }),
  )
  const heap = () => {
    gc?.()
    return process.memoryUsage().heapUsed
  }
  let peakHeap = heap()
  const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, heap())), gc ? 250 : 25)
  const limits: number[] = []
  let refused = 0
  const started = performance.now()
  const run = createSyncRun(
    { outbox, transport, clock: { now: () => Date.now(), sleep, random: Math.random } },
    { runId: `bench-${count}`, kind: 'skus', batchSize: BATCH, ...sending },
    {
      onConcurrency: (limit) => limits.push(limit),
      onRequest: (request) => {
        if (request.outcome?.status === 429) refused += 1
      },
      // A person who resumes at once when the service stayed busy past the bounded waits (a fixed
      // level above the service's capacity can get there).
      onStatus: (status) => {
        if (status.state === 'paused' && status.reason === 'busy') setTimeout(() => run.resume(), 0)
      },
    },
  )
  const summary = await run.start()
  const ms = performance.now() - started
  clearInterval(sampler)
  peakHeap = Math.max(peakHeap, heap())
  await journal.close()
  await rm(path, { force: true })
  if (summary.counts.synced !== count)
    throw new Error(`The engine synced ${summary.counts.synced} of ${count}`)
  return { ms, peakHeap, limits, refused }
}

const mb = (bytes: number) => bytes / 1024 / 1024

export async function syncScenario(): Promise<BenchResult[]> {
  return [...(await engineScenario()), ...(await adaptiveScenario())]
}

async function engineScenario(): Promise<BenchResult[]> {
  const sandbox = await startChildSandbox()
  const dir = await mkdtemp(join(tmpdir(), 'catalog-desk-bench-sync-'))
  try {
    // A warm-up of both, so neither pays for the first compilation of got or the sandbox.
    await rawLoop(sandbox.url, 500)
    await engineRun(sandbox.url, 500, dir)
    await clearSandbox(sandbox.url)

    const raw: number[] = []
    const durable: number[] = []
    const engine: number[] = []
    const runRaw = async () => {
      raw.push(await rawLoop(sandbox.url, SKUS))
      await clearSandbox(sandbox.url)
      durable.push(await rawLoop(sandbox.url, SKUS, join(dir, `raw-${Date.now()}.jsonl`)))
      await clearSandbox(sandbox.url)
    }
    const runEngine = async () => {
      engine.push((await engineRun(sandbox.url, SKUS, dir)).ms)
      const stored = await clearSandbox(sandbox.url)
      if (stored !== SKUS) throw new Error(`The sandbox stored ${stored} SKUs, not ${SKUS}`)
    }
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        await runRaw()
        await runEngine()
      } else {
        await runEngine()
        await runRaw()
      }
      log(
        `sync round ${round + 1}: raw ${raw.at(-1)!.toFixed(0)} ms, raw with flushes ${durable.at(-1)!.toFixed(0)} ms, engine ${engine.at(-1)!.toFixed(0)} ms`,
      )
    }

    const gc = collector()
    gc()
    const base = process.memoryUsage().heapUsed
    const small = await engineRun(sandbox.url, SKUS, dir, gc)
    await clearSandbox(sandbox.url)
    const large = await engineRun(sandbox.url, LARGE, dir, gc)
    await clearSandbox(sandbox.url)
    log(
      `sync memory (live heap, sampled after full collections): ${mb(base).toFixed(1)} MB before, peak ${mb(small.peakHeap).toFixed(1)} MB at ${SKUS}, ${mb(large.peakHeap).toFixed(1)} MB at ${LARGE} (${(large.ms / 1000).toFixed(1)} s)`,
    )
    return [
      // The goal (≤ 1.1): the engine, journal included, against posting the same batches raw with
      // the same durability (a line flushed before each request).
      result('sync', `engine-${SKUS}`, median(engine), median(durable)),
      // The same against the raw loop without flushes: the price of durability.
      result('sync', `engine-${SKUS}-vs-no-flush`, median(engine), median(raw)),
      // Flat memory: the peak heap at 100,000 SKUs against the peak at 10,000.
      result('sync', `peak-heap-${LARGE}`, mb(large.peakHeap), mb(small.peakHeap), 'MB'),
      result('sync', `peak-heap-${SKUS}`, mb(small.peakHeap), mb(base), 'MB'),
    ]
  } finally {
    sandbox.child.kill('SIGTERM')
    await rm(dir, { recursive: true, force: true })
  }
}

/**
 * Adaptive against fixed concurrency, on a sandbox with a capacity model: a sweep of fixed levels
 * (1 up, until one is slower than the one before: past the service's capacity more at once only
 * meets 429s), then rounds of the best of them and the adaptive engine, alternating, medians
 * compared. The adaptive engine may go up to the profiles' maximum.
 */
async function adaptiveScenario(): Promise<BenchResult[]> {
  const sandbox = await startChildSandbox([
    '--capacity',
    `slots=${CAPACITY.slots}:latency=${CAPACITY.latencyMs}`,
  ])
  const dir = await mkdtemp(join(tmpdir(), 'catalog-desk-bench-adaptive-'))
  const max = PROFILE_LIMITS.concurrency.max
  const timed = async (sending: Sending) => {
    const run = await engineRun(sandbox.url, SKUS, dir, undefined, sending)
    const stored = await clearSandbox(sandbox.url)
    if (stored !== SKUS) throw new Error(`The sandbox stored ${stored} SKUs, not ${SKUS}`)
    return run
  }
  try {
    await engineRun(sandbox.url, 500, dir)
    await clearSandbox(sandbox.url)

    const fixed = new Map<number, number>()
    for (let concurrency = 1; concurrency <= max; concurrency++) {
      const run = await timed({ concurrency, adaptive: false })
      fixed.set(concurrency, run.ms)
      log(`sync sweep: fixed ${concurrency} at a time ${run.ms.toFixed(0)} ms (${run.refused} answered 429)`)
      if (concurrency > 1 && run.ms > fixed.get(concurrency - 1)!) break
    }
    const [best] = [...fixed].sort((a, b) => a[1] - b[1])[0]!
    log(`sync sweep: the best fixed level is ${best} at a time`)
    const bestFixed = [fixed.get(best)!]
    const adaptive: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const runAdaptive = async () => {
        const run = await timed({ concurrency: max, adaptive: true })
        adaptive.push(run.ms)
        log(
          `sync adaptive round ${round + 1}: ${run.ms.toFixed(0)} ms, levels ${run.limits.join(' ')} (${run.refused} answered 429)`,
        )
      }
      const runFixed = async () => {
        if (round === 0) return // the sweep's run is the first
        bestFixed.push((await timed({ concurrency: best, adaptive: false })).ms)
        log(`sync fixed ${best} round ${round + 1}: ${bestFixed.at(-1)!.toFixed(0)} ms`)
      }
      if (round % 2 === 0) {
        await runAdaptive()
        await runFixed()
      } else {
        await runFixed()
        await runAdaptive()
      }
    }
    return [
      // The goal (≤ 1.15): found while sending, against the best a person could have set.
      result('sync', 'adaptive-vs-best-fixed', median(adaptive), median(bestFixed)),
      // The profiles' default, one at a time, against the same best.
      result('sync', 'fixed-1-vs-best-fixed', fixed.get(1)!, median(bestFixed)),
    ]
  } finally {
    sandbox.child.kill('SIGTERM')
    await rm(dir, { recursive: true, force: true })
  }
}
