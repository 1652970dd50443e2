import { spawn, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import https from 'node:https'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import v8 from 'node:v8'
import vm from 'node:vm'
import got from 'got'
import { openJournalOutbox } from '#cli/push/journal-outbox.ts'
import { createServiceClient } from '#node/service/client.ts'
import { DEFAULT_TIMEOUTS } from '#shared/profile.ts'
import { BULK_UPLOAD_PATH } from '#shared/service/endpoints.ts'
import { sleep } from '#shared/service/resend.ts'
import { createSyncRun } from '#shared/sync/engine.ts'
import { log, median, result, type BenchResult } from './result.ts'

/**
 * Batch sync: 10,000 SKUs to the sandbox over loopback, 50 a request, one request at a time (the
 * profiles' default), through the real engine with the CLI's journal outbox (a JSON line appended
 * and flushed to disk before and after every request) and the real got client, against a raw loop
 * posting the same batches with got (keep-alive off, as the client) in the same run. Then the
 * engine's peak heap at 10,000 and 100,000 SKUs: SKUs are made on demand by index, so a flat
 * figure shows the engine streams. The sandbox runs in a child process so its memory (it keeps
 * every SKU it received) does not count.
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

async function startChildSandbox(): Promise<ChildSandbox> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/catalog-desk.js'), 'sandbox', '--port', '0', '--token', TOKEN, '--max-batch', '1000'],
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

/** The raw work: the same batches, posted one after another with got, nothing recorded. */
async function rawLoop(url: string, count: number): Promise<number> {
  const agent = { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) }
  const started = performance.now()
  for (let from = 0; from < count; from += BATCH) {
    const skus = []
    for (let index = from; index < Math.min(count, from + BATCH); index++) skus.push(skuAt(index))
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
  return performance.now() - started
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
async function engineRun(
  url: string,
  count: number,
  dir: string,
  gc?: () => void,
): Promise<{ ms: number; peakHeap: number }> {
  const journal = join(dir, `journal-${count}-${Date.now()}.jsonl`)
  const outbox = await openJournalOutbox({
    path: journal,
    fingerprint: `bench-${count}`,
    baseUrl: url,
    kind: 'skus',
    items: { total: count, at: (index) => ({ payload: skuAt(index), label: `BENCH-${index}` }) },
  })
  const transport = createServiceClient({
    baseUrl: url,
    tokenEncoding: 'raw',
    timeouts: DEFAULT_TIMEOUTS,
    getToken: async () => TOKEN,
  })
  const heap = () => {
    gc?.()
    return process.memoryUsage().heapUsed
  }
  let peakHeap = heap()
  const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, heap())), gc ? 250 : 25)
  const started = performance.now()
  const run = createSyncRun(
    { outbox, transport, clock: { now: () => Date.now(), sleep, random: Math.random } },
    { runId: `bench-${count}`, kind: 'skus', batchSize: BATCH, concurrency: 1 },
  )
  const summary = await run.start()
  const ms = performance.now() - started
  clearInterval(sampler)
  peakHeap = Math.max(peakHeap, heap())
  await outbox.close()
  await rm(journal, { force: true })
  if (summary.counts.synced !== count)
    throw new Error(`The engine synced ${summary.counts.synced} of ${count}`)
  return { ms, peakHeap }
}

const mb = (bytes: number) => bytes / 1024 / 1024

export async function syncScenario(): Promise<BenchResult[]> {
  const sandbox = await startChildSandbox()
  const dir = await mkdtemp(join(tmpdir(), 'catalog-desk-bench-sync-'))
  try {
    // A warm-up of both, so neither pays for the first compilation of got or the sandbox.
    await rawLoop(sandbox.url, 500)
    await engineRun(sandbox.url, 500, dir)
    await clearSandbox(sandbox.url)

    const raw: number[] = []
    const engine: number[] = []
    const runRaw = async () => {
      raw.push(await rawLoop(sandbox.url, SKUS))
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
      log(`sync round ${round + 1}: raw ${raw.at(-1)!.toFixed(0)} ms, engine ${engine.at(-1)!.toFixed(0)} ms`)
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
      // The goal (≤ 1.3): the engine, journal included, against posting the same batches raw.
      result('sync', `engine-${SKUS}`, median(engine), median(raw)),
      // Flat memory: the peak heap at 100,000 SKUs against the peak at 10,000.
      result('sync', `peak-heap-${LARGE}`, mb(large.peakHeap), mb(small.peakHeap), 'MB'),
      result('sync', `peak-heap-${SKUS}`, mb(small.peakHeap), mb(base), 'MB'),
    ]
  } finally {
    sandbox.child.kill('SIGTERM')
    await rm(dir, { recursive: true, force: true })
  }
}
