import { draftColumns } from '#shared/draft-columns.ts'
import type { Sku } from '#shared/schema/sku.ts'
import { matchColumns } from '#shared/sheet/columns.ts'
import { defaultSettings, type SheetMapping } from '#shared/sheet/mapping.ts'
import { productLayout } from '#shared/sheet/products.ts'
import { DryRunTally } from './dry-run.ts'
import { SNIFF_BYTES, fileKind, UnreadableFile } from './file-kind.ts'
import {
  SAMPLE_ROWS,
  type Analysis,
  type ChunkRow,
  type ImportRequest,
  type ImportResponse,
  type ReadProgress,
  type RunOptions,
  type SavedMapping,
} from './import-protocol.ts'
import { readHead, readJson, readResults } from './read-sheet.ts'
import { messageOf } from '#shared/error-message.ts'

/**
 * The importer's worker: reads, maps and checks a file off the page's thread, and hands the page
 * SKUs to write a chunk at a time, waiting for each to be written before reading on.
 */

// Typed by hand: the renderer compiles with the DOM library, whose `self` is a window.
interface WorkerScope {
  postMessage(message: ImportResponse): void
  addEventListener(type: 'message', listener: (event: MessageEvent<ImportRequest>) => void): void
}
const scope = self as unknown as WorkerScope

/** The job under way: one at a time, a new request ends the one before. */
let current: { job: number; stop: AbortController; written?: () => void } | undefined

function post(message: ImportResponse) {
  scope.postMessage(message)
}

/** Progress at most every 100 ms: the page's live region and bar need no more. */
function throttled(job: number) {
  let last = 0
  return (progress: ReadProgress) => {
    const now = performance.now()
    if (now - last < 100) return
    last = now
    post({ type: 'progress', job, progress })
  }
}

async function formatOf(file: File) {
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer())
  return fileKind(file.name, file.size, head)
}

async function analyse(file: File, saved: SavedMapping): Promise<Analysis> {
  const format = await formatOf(file)
  if (format === 'json') {
    const { kind } = await readJson(file)
    return { format, headers: [], matches: [], samples: [], documentKind: kind }
  }
  const { headers, rows } = await readHead(file, format, SAMPLE_ROWS)
  if (headers.length === 0 || headers.every((header) => header.trim() === ''))
    throw new UnreadableFile('It has no header row: its first row must name the columns.')
  const layout = productLayout(headers)
  return {
    format,
    headers,
    matches: matchColumns(headers, { saved, structural: layout.structural }),
    samples: rows,
    productFormat: layout.format,
    settings: defaultSettings(matchColumns(headers, { structural: layout.structural })),
  }
}

async function dryRun(
  job: number,
  file: File,
  mapping: SheetMapping,
  held: ReadonlySet<string>,
  signal: AbortSignal,
) {
  const format = await formatOf(file)
  const tally = new DryRunTally(format === 'json' ? 'exact' : 'cells', held)
  const report = throttled(job)
  const { documentErrors, products } = await readResults(
    file,
    format,
    mapping,
    signal,
    (results, progress) => {
      tally.add(results)
      report(progress)
    },
  )
  post({ type: 'report', job, report: tally.report(documentErrors, products) })
}

async function run(job: number, file: File, mapping: SheetMapping, options: RunOptions, signal: AbortSignal) {
  const format = await formatOf(file)
  let pending: Sku[] = []
  let rows: ChunkRow[] = []
  let leftOut: number[] = []
  // One chunk is with the page at a time, while the next one is read and converted here: reading
  // overlaps writing, and memory stays at two chunks.
  let written: Promise<void> = Promise.resolve()
  const handOver = async (progress: ReadProgress) => {
    const chunk = { skus: pending, rows, leftOut, columns: pending.map(draftColumns) }
    pending = []
    rows = []
    leftOut = []
    await written
    written = new Promise<void>((resolve, reject) => {
      current!.written = resolve
      signal.addEventListener('abort', () => reject(signal.reason), { once: true })
    })
    post({ type: 'chunk', job, ...chunk, progress })
  }
  const { progress } = await readResults(file, format, mapping, signal, async (results, read) => {
    for (const result of results) {
      if (options.includeInvalid || result.errors.length === 0) {
        pending.push(result.sku)
        rows.push({
          row: result.row,
          errors: result.errors.length,
          ...(result.draft && { draft: result.draft }),
        })
      } else leftOut.push(result.row)
      if (pending.length >= options.chunkSize) await handOver(read)
    }
  })
  if (pending.length || leftOut.length) await handOver(progress)
  await written
  post({ type: 'done', job, progress })
}

async function start(request: Exclude<ImportRequest, { type: 'written' | 'cancel' }>) {
  current?.stop.abort()
  const stop = new AbortController()
  const job = request.job
  current = { job, stop }
  try {
    if (request.type === 'analyse')
      post({ type: 'analysed', job, analysis: await analyse(request.file, request.saved) })
    else if (request.type === 'dry-run')
      await dryRun(job, request.file, request.mapping, new Set(request.held), stop.signal)
    else await run(job, request.file, request.mapping, request.options, stop.signal)
  } catch (error) {
    if (stop.signal.aborted) post({ type: 'cancelled', job })
    else
      post({ type: 'failed', job, message: `“${request.file.name}” cannot be imported. ${messageOf(error)}` })
  } finally {
    if (current?.job === job) current = undefined
  }
}

scope.addEventListener('message', (event) => {
  const request = event.data
  if (request.type === 'cancel') {
    if (current?.job === request.job) current.stop.abort(new DOMException('Cancelled', 'AbortError'))
  } else if (request.type === 'written') {
    if (current?.job === request.job) current.written?.()
  } else void start(request)
})
