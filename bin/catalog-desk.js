#!/usr/bin/env node
// The CLI's entry point as npm installs it (package.json's "bin"): plain JavaScript, so an old Node
// reads it and says what it needs, then the CLI as built into out/cli by `npm run build:cli`
// (Node strips types from no file under node_modules). Working on the sources, `npm run cli`
// (scripts/cli.js) runs them as they are, with no build.
import { requireNode, runCli } from './run-cli.js'

requireNode()
// A path, not a literal import: out/cli exists only once built, and the type checker need not look.
const built = new URL('../out/cli/catalog-desk.js', import.meta.url)
await runCli(() =>
  import(built.href).catch((error) => {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(built.pathname)) {
      process.stderr.write(
        'catalog-desk: the CLI is not built: run "npm run build:cli", or "npm run cli -- …" to run the sources.\n',
      )
      process.exit(2)
    }
    throw error
  }),
)
