#!/usr/bin/env node
// The CLI's entry point. Plain JavaScript so it runs before TypeScript can: it checks the Node
// version, makes sure Node strips types, then runs src/cli/main.ts as it is (no build step).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const MINIMUM = [22, 12]
// Set on the re-run below, so a Node that cannot strip types at all fails once instead of looping.
const RERUN_MARK = 'CATALOG_DESK_STRIP_TYPES_RERUN'

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
if (major < MINIMUM[0] || (major === MINIMUM[0] && minor < MINIMUM[1])) {
  process.stderr.write(
    `catalog-desk needs Node.js ${MINIMUM.join('.')} or newer; this is ${process.version}.\n`,
  )
  process.exit(2)
}

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
  try {
    const { main } = await import('../src/cli/main.ts')
    process.exitCode = await main(process.argv.slice(2), {
      stdout: process.stdout,
      stderr: process.stderr,
      cwd: process.cwd(),
    })
  } catch (error) {
    // A bug rather than a bad document: keep status 1 for "invalid" so scripts can trust it.
    process.stderr.write(
      `catalog-desk: unexpected error\n${error instanceof Error ? error.stack : String(error)}\n`,
    )
    process.exitCode = 2
  }
}
