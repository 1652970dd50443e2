import { assetsScenario } from './assets.ts'
import { cliScenario } from './cli.ts'
import { importScenario } from './import.ts'
import { listScenario } from './list.ts'
import { packScenario } from './pack.ts'
import { log, type BenchResult } from './result.ts'
import { startScenario } from './start.ts'
import { syncScenario } from './sync.ts'
import { teamScenario } from './team.ts'
import { tryOnScenario } from './try-on.ts'

/**
 * `npm run bench -- <scenario>…` (all scenarios when none is named). Prints one JSON object per
 * line on stdout, nothing else; progress goes to stderr. Benchmarks never fail the tests.
 */
const SCENARIOS: Record<string, () => Promise<BenchResult[]>> = {
  // The start first, before the list's 100,000 drafts leave the machine busy compacting.
  list: async () => [...(await startScenario()), ...(await listScenario())],
  import: importScenario,
  sync: syncScenario,
  cli: cliScenario,
  assets: assetsScenario,
  'try-on': tryOnScenario,
  pack: packScenario,
  team: teamScenario,
}

const names = process.argv.slice(2)
const unknown = names.filter((name) => !(name in SCENARIOS))
if (unknown.length) {
  log(`Unknown scenario: ${unknown.join(', ')}. Known: ${Object.keys(SCENARIOS).join(', ')}.`)
  process.exit(2)
}
for (const name of names.length ? names : Object.keys(SCENARIOS)) {
  for (const line of await SCENARIOS[name]!()) process.stdout.write(`${JSON.stringify(line)}\n`)
}
// Everything measured is closed by now. The team scenario's CouchDB-compatible test server
// (express-pouchdb) keeps a heartbeat interval for each long poll a desk had open when it closed,
// which would keep the process alive: done is done.
process.exit(0)
