import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeCatalogueCsv, writeCatalogueJson } from './catalogue-files.ts'
import { log, result, type BenchResult } from './result.ts'

/**
 * The CLI at scale: `validate` and `convert` of a catalogue of 100,000 and 1,000,000 SKUs, as CSV
 * and as JSON (a bulk request), each run as a real process of its own, as a person runs it. For
 * each command and format: the time a row takes at 1,000,000 against the same at 100,000 (goal
 * ≤ 1.1: the CLI streams, so a row costs the same however many come before it) and the process's
 * peak memory (resident set) at 1,000,000 against 100,000 (goal: under 500 MB, flat).
 *
 * A row's time leaves out what every run pays once (starting Node and loading the CLI), measured
 * on a one-row file of the same kind; convert writes JSON from CSV and CSV from JSON, so both
 * writers run. The files are generated in a temporary folder (catalogue-files.ts) and removed.
 */
const SIZES = [100_000, 1_000_000] as const
const ROOT = fileURLToPath(new URL('../', import.meta.url))
/** Reports the child's peak resident memory on its file descriptor 3 as it exits. */
const MAX_RSS = fileURLToPath(new URL('./max-rss.ts', import.meta.url))

const FORMATS = {
  csv: { write: writeCatalogueCsv, convertTo: 'json' },
  json: { write: writeCatalogueJson, convertTo: 'csv' },
} as const

interface Run {
  ms: number
  rssMb: number
}

export async function cliScenario(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'catalog-desk-bench-cli-'))
  const lines: BenchResult[] = []
  try {
    for (const [format, { write, convertTo }] of Object.entries(FORMATS)) {
      const input = (rows: number) => join(dir, `catalogue-${rows}.${format}`)
      await write(input(1), 1)
      const runs = new Map<string, Run>()
      for (const rows of SIZES) {
        const startedAt = Date.now()
        const bytes = await write(input(rows), rows)
        log(
          `cli: ${rows} rows of ${format}, ${(bytes / 1e6).toFixed(0)} MB, written in ${Date.now() - startedAt} ms`,
        )
        for (const command of ['validate', 'convert'] as const) {
          const fixed = await runCli(command, input(1), join(dir, `out-1.${convertTo}`))
          const run = await runCli(command, input(rows), join(dir, `out.${convertTo}`))
          const perRowUs = ((run.ms - fixed.ms) * 1000) / rows
          log(
            `cli: ${command} ${format} ${rows}: ${run.ms} ms (${perRowUs.toFixed(1)} µs a row), ${run.rssMb.toFixed(0)} MB`,
          )
          runs.set(`${command} ${rows}`, { ms: perRowUs, rssMb: run.rssMb })
          await rm(join(dir, `out.${convertTo}`), { force: true })
          await rm(join(dir, `out-1.${convertTo}`), { force: true })
        }
        await rm(input(rows))
      }
      for (const command of ['validate', 'convert'] as const) {
        const small = runs.get(`${command} ${SIZES[0]}`)!
        const large = runs.get(`${command} ${SIZES[1]}`)!
        lines.push(
          result('cli', `${command}-${format}-per-row-1m-vs-100k`, large.ms, small.ms, 'µs'),
          result('cli', `${command}-${format}-peak-rss-1m-vs-100k`, large.rssMb, small.rssMb, 'MB'),
        )
      }
    }
    return lines
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Runs `catalog-desk validate IN` or `convert IN OUT` as a process of its own: its time and peak memory. */
async function runCli(command: 'validate' | 'convert', input: string, output: string): Promise<Run> {
  const args = command === 'validate' ? ['validate', input] : ['convert', input, output]
  const startedAt = performance.now()
  const child = spawn(process.execPath, ['--import', MAX_RSS, join(ROOT, 'scripts/cli.js'), ...args], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  let report = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.stdio[3]!.on('data', (chunk: Buffer) => (report += chunk.toString()))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  const ms = performance.now() - startedAt
  if (code !== 0) throw new Error(`catalog-desk ${args.join(' ')} exited ${code}: ${stderr.trim()}`)
  const { maxRSS } = JSON.parse(report) as { maxRSS: number }
  return { ms, rssMb: maxRSS / 1024 }
}
