import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { assetRefs, type AssetRef } from '#shared/asset-checks/asset-refs.ts'
import { DEFAULT_BUDGETS, validateBudgets, type AssetBudgets } from '#shared/asset-checks/budgets.ts'
import { judge } from '#shared/asset-checks/judge.ts'
import {
  assetClassOf,
  type AssetCheck,
  type AssetClass,
  type AssetKind,
  type AssetOutcome,
  type SkuAssetResult,
} from '#shared/asset-checks/results.ts'
import { messageOf } from '#shared/error-message.ts'
import { SKU_KIND } from '#shared/sync/kinds.ts'
import { AssetCacheFile, NotACacheError } from '#node/asset-checks/asset-cache.ts'
import type { AssetChecker } from '#node/asset-checks/asset-checker.ts'
import { CONCURRENCY } from '#node/asset-checks/asset-fetch.ts'
import { parseCommandArgs } from '../args.ts'
import { countResult, emptyTally, resultText, summaryText, type AssetTally } from '../asset-report.ts'
import { checkInput, type CheckedFile } from '../check-input.ts'
import { READ_ERRORS } from '../input-file.ts'
import { BatchedOutput } from '../batched-output.ts'
import { CliError, EXIT_INVALID, EXIT_OK, type CliIo, type Output } from '../io.ts'
import { jsonMember, JsonListSpool } from '../json-layout.ts'
import { SHEET_ARGS, sheetOptions, showMapping, type SheetOptions } from '../sheet-options.ts'
import { lineFields } from '../sheet-report.ts'
import { Spool } from '../spool.ts'
import { CHECK_ASSETS_USAGE } from '../usage.ts'

/**
 * `catalog-desk check-assets FILE`: the asset checks of the app, headless, on anything `validate`
 * reads, read as validate reads it (check-input.ts: a small JSON file whole, anything else as it
 * streams). Each SKU's assets start being checked as the SKU is read, each distinct file once
 * (asset-checker.ts), at most --concurrency at once. What each SKU names waits until every check
 * is done (in memory for the first 10,000 SKUs, on disk beyond: `NamedSkus`); then the report is
 * written in file order, one entry per SKU and asset, and the budgets are judged.
 *
 * Where findings live between runs: nowhere unless --cache FILE names a file. A cache the person
 * did not ask for would be state that changes what a run does (a CI run would trust a 304 from a
 * server it has never seen answer before), and the right place differs by user; so the CLI keeps
 * one only where told, bounded (asset-cache.ts: the 10,000 files used last).
 */

/** The one hint a refused local address gives on the command line. */
const ALLOW_HINT = 'run with --allow-local to check it'

/** Progress on stderr at most this often. */
const PROGRESS_MS = 1_000

const CHECK_ASSETS_ARGS = {
  json: { type: 'boolean' },
  concurrency: { type: 'string' },
  'allow-local': { type: 'boolean' },
  cache: { type: 'string' },
  budgets: { type: 'string' },
  ...SHEET_ARGS,
  help: { type: 'boolean', short: 'h' },
} as const

export async function checkAssetsCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('check-assets', args, CHECK_ASSETS_ARGS)
  if (values.help) {
    io.stdout.write(CHECK_ASSETS_USAGE)
    return EXIT_OK
  }
  const [file, ...extra] = positionals
  if (file === undefined)
    throw new CliError('Missing FILE: name the JSON, CSV or XLSX file of SKUs.', 'check-assets')
  if (extra.length > 0)
    throw new CliError(`check-assets checks one FILE; also given: ${extra.join(' ')}`, 'check-assets')
  const concurrency = wholeNumber(values.concurrency)
  const budgets =
    values.budgets === undefined ? { ...DEFAULT_BUDGETS } : await readBudgets(values.budgets, io.cwd)
  const options = await sheetOptions(values, io.cwd)
  // Loaded here, not with the CLI: the glTF-Validator takes a while to load, and only this command needs it.
  const [{ createAssetChecker }, { validatorVersion }] = await Promise.all([
    import('#node/asset-checks/asset-checker.ts'),
    import('#shared/asset-checks/inspect-model.ts'),
  ])
  const cache = values.cache === undefined ? undefined : await openCache(values.cache, validatorVersion(), io)
  const checker = createAssetChecker({
    allowLocalAddresses: () => values['allow-local'] === true,
    allowHint: ALLOW_HINT,
    budgets,
    concurrency,
    cache,
  })
  const progress = printProgress(io.stderr, checker, cache !== undefined)
  const run: CheckRun = {
    named: new NamedSkus(),
    checks: { model: new Map(), picture: new Map() },
    tally: emptyTally(),
  }
  try {
    const checked = await askChecks(file, io.cwd, options, checker, run)
    await Promise.all([...run.checks.model.values(), ...run.checks.picture.values()])
    clearInterval(progress)
    if (cache) await saveCache(cache, io)
    run.tally.files = checker.stats.asked
    run.tally.unchanged = checker.stats.unchanged
    const report = { run, budgets, cached: cache !== undefined }
    if (values.json)
      await writeJson(io.stdout, report, checked.kind, options.showMapping ? checked.mapping : undefined)
    else {
      io.stdout.write(showMapping(checked.mapping, options))
      await writeText(io.stdout, report)
    }
    return run.tally.error > 0 ? EXIT_INVALID : EXIT_OK
  } finally {
    clearInterval(progress)
    run.named.close()
  }
}

/** What a run gathers: the SKUs that name assets, what the checker was asked, and the counts. */
interface CheckRun {
  named: NamedSkus
  checks: AssetChecks
  tally: AssetTally
}

/** What the report is made of: the run, the budgets it is judged by, and whether a cache was used. */
interface CheckReport {
  run: CheckRun
  budgets: AssetBudgets
  cached: boolean
}

/** Progress on standard error, at most once a second, until cleared. */
function printProgress(err: Output, checker: AssetChecker, cached: boolean): ReturnType<typeof setInterval> {
  const progress = setInterval(() => {
    const { asked, done, unchanged } = checker.stats
    err.write(
      `Progress: ${done} of ${asked} files checked${cached ? ` (${unchanged} unchanged since the cache)` : ''}\n`,
    )
  }, PROGRESS_MS)
  progress.unref?.()
  return progress
}

/**
 * Reads FILE as validate reads it, asking the checker about each address a SKU names as the SKU
 * is read, and keeping what each SKU named for the report; refuses what holds no SKUs.
 */
async function askChecks(
  file: string,
  cwd: string,
  options: SheetOptions,
  checker: AssetChecker,
  { named, checks, tally }: CheckRun,
): Promise<CheckedFile> {
  const checked = await checkInput(
    file,
    cwd,
    options,
    (item) => {
      tally.skus++
      const refs = assetRefs(item.payload)
      if (refs.length === 0) return
      tally.naming++
      // Each address as spelled, asked of the checker once for each class: 1,000 SKUs naming 50
      // models ask it 50 times, not 1,000 (each ask parses the address to compare it, 0.6 ms a
      // thousand). Kept by class, then by the address as it is, so no key is built for each SKU.
      for (const ref of refs) {
        const asset = assetClassOf(ref.kind)
        const asked = checks[asset]
        if (!asked.has(ref.url)) asked.set(ref.url, checker.check(ref.url, asset))
      }
      const sku = SKU_KIND.label(item.payload, `#${item.index}`)
      const line = item.row === undefined ? {} : lineFields(item.place)
      named.add({ index: item.index, row: item.row, ...line, sku, refs })
    },
    // Whether the SKUs meet the contract is validate's question: their assets are checked either way.
    { validate: false },
  )
  if (checked.kind === 'app-request') {
    throw new CliError(`${file} holds an app creation request: check-assets checks the assets SKUs name.`)
  }
  if (checked.fileErrors.length > 0) {
    throw new CliError(`${file} holds no list of SKUs to check: ${checked.fileErrors[0]!.message}`)
  }
  return checked
}

/** `--json`: the counts and budgets, then each result (spooled: they may be many), then the mapping. */
async function writeJson(
  out: Output,
  { run, budgets, cached }: CheckReport,
  kind: CheckedFile['kind'],
  mapping: CheckedFile['mapping'],
): Promise<void> {
  const results = new JsonListSpool()
  try {
    await eachResult(run, budgets, (at, field, check) =>
      results.add({
        index: at.index,
        ...(at.row === undefined ? {} : { row: at.row }),
        ...(at.line === undefined ? {} : { line: at.line }),
        ...(at.file === undefined ? {} : { file: at.file }),
        sku: at.sku,
        field,
        ...check,
      } satisfies SkuAssetResult),
    )
    const head = { kind, ...tallyJson(run.tally, cached) }
    out.write(
      `{\n${Object.entries(head)
        .map(([key, value]) => jsonMember(key, value))
        .join(',\n')},\n`,
    )
    out.write(`${jsonMember('budgets', budgets)},\n`)
    results.write(out, 'results')
    if (mapping) out.write(`,\n${jsonMember('mapping', mapping)}`)
    out.write('\n}\n')
  } finally {
    results.close()
  }
}

/** The text report: one line a SKU and asset, then the summary. */
async function writeText(out: Output, { run, budgets, cached }: CheckReport): Promise<void> {
  const batched = new BatchedOutput(out)
  await eachResult(run, budgets, (at, field, check) => batched.write(resultText(at, field, check)))
  batched.write(summaryText(run.tally, cached))
  batched.flush()
}

/** What is kept of a SKU that names assets, until the checks are done. */
interface Named {
  index: number
  row: number | undefined
  /** A spreadsheet row's line (and a pair's file), for a person to find it. */
  line?: number
  file?: string
  sku: string
  refs: AssetRef[]
}

/**
 * SKUs kept as they are, up to this many (a few megabytes); beyond, each waits on disk as a line
 * of JSON. Writing and reading back every SKU's line cost 0.8 ms in 1,000 SKUs, on the thread
 * that validates the models, for memory that a file of a few thousand SKUs never needed.
 */
const HELD_SKUS = 10_000

/** What the SKUs that name assets named, in file order: in memory, then in a spool once there are many. */
class NamedSkus {
  private held: Named[] = []
  private spool: Spool | undefined

  add(named: Named): void {
    if (!this.spool && this.held.length < HELD_SKUS) {
      this.held.push(named)
      return
    }
    this.spool ??= new Spool()
    this.spool.write(`${JSON.stringify(named)}\n`)
  }

  *all(): Generator<Named> {
    yield* this.held
    if (this.spool) for (const line of this.spool.lines()) yield JSON.parse(line) as Named
  }

  close(): void {
    this.spool?.close()
  }
}

/** What the checker was asked, by class and then by the address as a SKU spelled it. */
type AssetChecks = Record<AssetClass, Map<string, Promise<AssetOutcome>>>

/**
 * Each SKU's assets judged, in file order, handed to `give` with the SKU and the field naming
 * each. An address named by many SKUs is judged once for each kind of field naming it, and that
 * one judgement (the same object) is given for every SKU naming it so.
 */
async function eachResult(
  { named, checks, tally }: CheckRun,
  budgets: AssetBudgets,
  give: (at: Named, field: string, check: AssetCheck) => void,
): Promise<void> {
  const judged: Record<AssetKind, Map<string, AssetCheck>> = {
    model: new Map(),
    'product-image': new Map(),
    'environment-image': new Map(),
    '2d-asset': new Map(),
  }
  for (const at of named.all()) {
    for (const ref of at.refs) {
      const byUrl = judged[ref.kind]
      let check = byUrl.get(ref.url)
      if (!check) {
        // Settled already: every check was awaited before the results are written.
        const outcome = await checks[assetClassOf(ref.kind)].get(ref.url)!
        check = judge({ ...outcome, url: ref.url }, ref.kind, budgets)
        byUrl.set(ref.url, check)
      }
      countResult(tally, check.status)
      give(at, ref.field, check)
    }
  }
}

function tallyJson(tally: AssetTally, cached: boolean) {
  const { skus, assets, files, unchanged, ok, warning, error } = tally
  return { skus, assets, files, ...(cached ? { unchanged } : {}), ok, warnings: warning, errors: error }
}

function wholeNumber(value: string | undefined): number {
  if (value === undefined) return CONCURRENCY.default
  const number = /^\d+$/.test(value) ? Number(value) : NaN
  if (!(number >= CONCURRENCY.min && number <= CONCURRENCY.max)) {
    throw new CliError(
      `--concurrency must be a whole number from ${CONCURRENCY.min} to ${CONCURRENCY.max}, not "${value}".`,
      'check-assets',
    )
  }
  return number
}

async function readBudgets(file: string, cwd: string): Promise<AssetBudgets> {
  let value: unknown
  try {
    value = JSON.parse(await readFile(resolve(cwd, file), 'utf8'))
  } catch (error) {
    const code = (error as { code?: string }).code ?? ''
    throw new CliError(`Cannot read the budgets ${file}: ${READ_ERRORS[code] ?? messageOf(error)}`)
  }
  const { budgets, problems } = validateBudgets(value)
  if (!budgets) throw new CliError(`The budgets ${file} cannot be used:\n  ${problems.join('\n  ')}`)
  return budgets
}

async function openCache(file: string, validator: string, io: CliIo): Promise<AssetCacheFile> {
  try {
    const cache = await AssetCacheFile.open(resolve(io.cwd, file), validator)
    if (cache.note) io.stderr.write(`note: ${cache.note}\n`)
    return cache
  } catch (error) {
    if (error instanceof NotACacheError)
      throw new CliError(error.message.replace(resolve(io.cwd, file), file))
    const code = (error as { code?: string }).code ?? ''
    throw new CliError(`Cannot read the cache ${file}: ${READ_ERRORS[code] ?? messageOf(error)}`)
  }
}

/** A cache that cannot be written costs the next run its speed, not this run its findings: said, not fatal. */
async function saveCache(cache: AssetCacheFile, io: CliIo): Promise<void> {
  try {
    await cache.save()
  } catch (error) {
    io.stderr.write(
      `catalog-desk: the cache could not be written (${messageOf(error)}); the findings stand.\n`,
    )
  }
}
