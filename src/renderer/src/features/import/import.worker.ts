import { openImportWrites } from '#renderer/db/import-connection.ts'
import type { SkuImportWrites } from '#renderer/db/sku-import-writes.ts'
import { matchColumns } from '#shared/sheet/columns.ts'
import { headerAsData } from '#shared/sheet/header-as-data.ts'
import { jsonTable, saidAsGuesses, spreadListOf, withGuessedColumns } from '#shared/sheet/json-table.ts'
import { defaultSettings, type SheetMapping } from '#shared/sheet/mapping.ts'
import { matchOptionsOf, productLayout } from '#shared/sheet/products.ts'
import { combinationsAlone, prestashopPair } from '#shared/sheet/prestashop-pair.ts'
import { isCombinationsAlone } from '#shared/sheet/prestashop.ts'
import { kindOf } from '#shared/sheet/read-rows.ts'
import { chunkedWrites } from './chunked-writes.ts'
import { DryRunTally } from './dry-run.ts'
import type {
  Analysis,
  DryRunGates,
  ImportRequest,
  ImportResponse,
  ReadProgress,
  RunOptions,
  SavedMapping,
  TakenCounts,
} from './import-protocol.ts'
import { jsonSkus, readHead, readJsonContent, readResults, SAMPLE_SCAN, sampleRows } from './read-sheet.ts'
import { UnreadableFile } from './unreadable-file.ts'
import { messageOf } from '#shared/error-message.ts'

/**
 * The importer's worker: reads, maps and checks a file off the page's thread, and writes its SKUs
 * to the drafts a chunk at a time, telling the page what became of each row.
 */

// Typed by hand: the renderer compiles with the DOM library, whose `self` is a window.
interface WorkerScope {
  postMessage(message: ImportResponse): void
  addEventListener(type: 'message', listener: (event: MessageEvent<ImportRequest>) => void): void
}
const scope = self as unknown as WorkerScope

/** The job under way: one at a time, a new request ends the one before. */
let current: { job: number; stop: AbortController; noted?: () => void } | undefined

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

async function formatOf(file: File, combinations?: File) {
  const kind = async (of: File) => {
    if (of.size === 0) throw new UnreadableFile('The file is empty.')
    return kindOf(of.name, of)
  }
  const format = await kind(file)
  if (combinations && (format !== 'csv' || (await kind(combinations)) !== 'csv'))
    throw new UnreadableFile(
      'Two files are imported together only as PrestaShop’s products and combinations files, which are CSV files.',
    )
  return format
}

async function analyse(file: File, saved: SavedMapping, combinations?: File): Promise<Analysis> {
  const format = await formatOf(file, combinations)
  if (format === 'json') {
    const content = await readJsonContent(file)
    if (content.kind === 'document') {
      const { kind } = jsonSkus(content.document)
      return { format, headers: [], matches: [], samples: [], documentKind: kind }
    }
    // A product list that is not SKUs: mapped as a sheet whose headers are its JSON paths, with
    // the guesses of json-table.ts (a list's option fields, which spread it; its fields by key).
    const { headers } = content
    const matches = saidAsGuesses(matchColumns(headers, { saved: withGuessedColumns(headers, saved) }), saved)
    const columns = matches.map((match) => match.path)
    const spread = spreadListOf(headers, columns)
    const { sources } = jsonTable(content.list, headers, 'list' in spread ? spread.list : undefined)
    return {
      format,
      headers,
      matches,
      samples: sampleRows(sources.slice(0, SAMPLE_SCAN).map((source) => source.cells)),
      productFormat: 'json',
      settings: defaultSettings(matchColumns(headers)),
    }
  }
  const { headers, rows } = await readHead(file, format, SAMPLE_SCAN, combinations)
  if (headers.length === 0 || headers.every((header) => header.trim() === ''))
    throw new UnreadableFile('It has no header row: its first row must name the columns.')
  if (isCombinationsAlone(headers))
    throw new UnreadableFile(
      combinationsAlone('together: drop both files here, or choose both in the file picker'),
    )
  const layout = productLayout(headers)
  const pair =
    combinations &&
    (await prestashopPair([
      { name: file.name, input: file },
      { name: combinations.name, input: combinations },
    ]))
  const matches = matchColumns(headers, { saved, ...matchOptionsOf(layout) })
  const dataAsHeader = headerAsData(matches)
  return {
    ...(pair && pair.products.input === combinations && { pairSwapped: true }),
    format,
    headers,
    matches,
    ...(dataAsHeader && { headerAsData: dataAsHeader }),
    samples: sampleRows(rows),
    productFormat: layout.format,
    ...(layout.language && { productLanguage: layout.language }),
    settings: defaultSettings(matchColumns(headers, matchOptionsOf(layout))),
  }
}

async function dryRun(
  job: number,
  file: File,
  mapping: SheetMapping,
  gates: DryRunGates,
  signal: AbortSignal,
  combinations?: File,
) {
  const format = await formatOf(file, combinations)
  // JSON of SKUs is compared exactly; a JSON product list, mapped by its columns, as a sheet's cells.
  const reading = format === 'json' && mapping.columns.length === 0 ? 'exact' : 'cells'
  writes ??= openImportWrites()
  const drafts = writes
  // Only a row that could update a draft is fingerprinted: one naming a draft or with a barcode a
  // draft holds (a first import fingerprints none).
  const tally = new DryRunTally(
    reading,
    new Set(await drafts.heldBarcodes()),
    gates,
    await drafts.syncedKeys(),
  )
  const report = throttled(job)
  const { documentErrors, products, numbering, notes } = await readResults(
    file,
    format,
    mapping,
    signal,
    (results, progress) => {
      tally.add(results)
      report(progress)
    },
    combinations,
  )
  const checked = tally.report(documentErrors, numbering, products, notes)
  // Read here rather than by the page: at 100,000 drafts these reads and fingerprints would stall
  // the window.
  const byBarcode = await drafts.findByBarcodes(checked.barcodes.all.distinct)
  const plans = await drafts.planUpdates(checked.fingerprints, reading)
  const likeDrafts = await drafts.namesWithoutBarcode(tally.namesOfNewRows('all').keys())
  /** New rows named as a draft you have without a barcode, and the first such name. */
  const namedLike = (names: ReadonlyMap<string, number>) => {
    const like = [...names].filter(([name]) => likeDrafts.has(name))
    return {
      namedLikeDrafts: like.reduce((sum, [, rows]) => sum + rows, 0),
      ...(like[0] && { likeDraft: like[0][0] }),
    }
  }
  const counts = (
    barcodes: readonly string[],
    rows: (valid: boolean) => boolean,
    names: ReadonlyMap<string, number>,
  ): TakenCounts => {
    const taken = checked.fingerprints.flatMap((row, i) => (rows(row.valid) ? [plans[i]!] : []))
    const named = checked.fingerprints.filter(
      (row, i) => rows(row.valid) && row.draft !== undefined && plans[i]!.draft === row.draft,
    )
    // Drafts, not rows: two rows may reach one draft (by its id and by its barcode).
    const changed = new Map<string, Set<string>>()
    for (const plan of taken)
      for (const destination of plan.changedAt) {
        const drafts = changed.get(destination) ?? new Set()
        changed.set(destination, drafts.add(plan.draft!))
      }
    return {
      existing: barcodes.filter((barcode) => byBarcode.has(barcode)).length,
      unchanged: taken.filter((plan) => plan.unchanged).length,
      inRun: taken.filter((plan) => plan.inRun).length,
      changedAt: [...changed].map(([destination, drafts]) => ({ destination, n: drafts.size })),
      named: named.length,
      namedWithoutBarcode: named.filter((row) => !row.barcode).length,
      ...namedLike(names),
    }
  }
  const taken = {
    valid: counts(checked.barcodes.valid.distinct, (valid) => valid, tally.namesOfNewRows('valid')),
    all: counts(checked.barcodes.all.distinct, () => true, tally.namesOfNewRows('all')),
  }
  post({ type: 'report', job, report: { ...checked, taken } })
}

/** The worker's writes, opened on the first run (the dry run never touches the database). */
let writes: SkuImportWrites | undefined

/**
 * Imports the file: reads and converts it a stretch at a time and writes it a chunk at a time
 * (chunked-writes.ts), the reading held back by a database slower than the file. Nothing is
 * written until the page has noted the import's batch.
 */
async function run(
  job: number,
  file: File,
  mapping: SheetMapping,
  options: RunOptions,
  signal: AbortSignal,
  combinations?: File,
) {
  const format = await formatOf(file, combinations)
  writes ??= openImportWrites()
  const into = writes
  const existing = {
    existingByBarcode: await into.findByBarcodes(options.barcodes),
    existingDrafts: await into.existingDrafts(options.drafts),
  }
  const batch = await into.beginImport(file.name)
  const noted = new Promise<void>((resolve, reject) => {
    current!.noted = resolve
    signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
  // Awaited by the first write; a cancel before there is one must not be an unhandled rejection.
  noted.catch(() => undefined)
  post({ type: 'begun', job, batch })
  const chunks = chunkedWrites({
    into,
    batch,
    options,
    existing,
    noted,
    signal,
    onWritten: (chunk, fates) =>
      post({
        type: 'written',
        job,
        rows: chunk.rows,
        fates,
        leftOut: chunk.leftOut,
        progress: chunk.progress,
      }),
  })
  try {
    const { progress } = await readResults(file, format, mapping, signal, chunks.add, combinations)
    await chunks.end(progress)
    post({ type: 'done', job, progress })
  } finally {
    into.finishImport(batch)
    // Writes under way end before the job does: the page then rolls back all that was written.
    await chunks.settled()
  }
}

async function start(request: Exclude<ImportRequest, { type: 'noted' | 'cancel' }>) {
  current?.stop.abort()
  const stop = new AbortController()
  const job = request.job
  current = { job, stop }
  try {
    const { combinations } = request
    if (request.type === 'analyse')
      post({ type: 'analysed', job, analysis: await analyse(request.file, request.saved, combinations) })
    else if (request.type === 'dry-run')
      await dryRun(job, request.file, request.mapping, request.gates, stop.signal, combinations)
    else await run(job, request.file, request.mapping, request.options, stop.signal, combinations)
  } catch (error) {
    const named = request.combinations
      ? `“${request.file.name}” with “${request.combinations.name}” cannot be imported.`
      : `“${request.file.name}” cannot be imported.`
    if (stop.signal.aborted) post({ type: 'cancelled', job })
    else post({ type: 'failed', job, message: `${named} ${messageOf(error)}` })
  } finally {
    if (current?.job === job) current = undefined
  }
}

scope.addEventListener('message', (event) => {
  const request = event.data
  if (request.type === 'cancel') {
    if (current?.job === request.job) current.stop.abort(new DOMException('Cancelled', 'AbortError'))
  } else if (request.type === 'noted') {
    if (current?.job === request.job) current.noted?.()
  } else void start(request)
})
