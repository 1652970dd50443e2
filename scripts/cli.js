// `npm run cli` and `npm run sandbox`: the CLI from its TypeScript sources, as they are (no build,
// so the tests and the bench always run the code of the day). The installed CLI is the build of
// the same sources, bin/catalog-desk.js, and shares this one's version check and process wiring.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { requireNode, runCli } from '../bin/run-cli.js'

// Set on the re-run below, so a Node that cannot strip types at all fails once instead of looping.
const RERUN_MARK = 'CATALOG_DESK_STRIP_TYPES_RERUN'

requireNode()
if (!process.features.typescript) {
  // Node 22 before 22.18 strips types only when asked. The flag's ExperimentalWarning is noise here.
  if (process.env[RERUN_MARK]) {
    process.stderr.write(`catalog-desk: this Node.js (${process.version}) cannot run TypeScript files.\n`)
    process.exit(2)
  }
  const self = fileURLToPath(import.meta.url)
  const result = spawnSync(
    process.execPath,
    ['--experimental-strip-types', '--no-warnings=ExperimentalWarning', self, ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, [RERUN_MARK]: '1' } },
  )
  if (result.error) {
    process.stderr.write(`catalog-desk: cannot start Node.js again: ${result.error.message}\n`)
    process.exitCode = 2
  } else if (result.signal) {
    // Die of the same signal, so a shell sees what the child saw (Ctrl-C stays an interrupt).
    process.kill(process.pid, result.signal)
  } else {
    process.exitCode = result.status ?? 2
  }
} else {
  await runCli(() => import('../src/cli/main.ts'))
}
