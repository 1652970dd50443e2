// What both entry points share, in plain JavaScript so that it runs on any Node: the version
// check, then the CLI run as a process (argv, standard streams, the exit status). The installed
// CLI, bin/catalog-desk.js, runs the build in out/cli; `npm run cli`, scripts/cli.js, the sources.

/** package.json's engines: node >= 22.12. */
const MINIMUM = { major: 22, minor: 12 }

/** Exits with status 2 on a Node older than package.json's engines allow. */
export function requireNode() {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
  if (major < MINIMUM.major || (major === MINIMUM.major && minor < MINIMUM.minor)) {
    process.stderr.write(
      `catalog-desk needs Node.js ${MINIMUM.major}.${MINIMUM.minor} or newer; this is ${process.version}.\n`,
    )
    process.exit(2)
  }
}

/**
 * Loads the CLI and runs it on this process's arguments. It sets `process.exitCode` rather than
 * calling `process.exit`, so piped output drains first.
 * @param {() => Promise<{ main: typeof import('../src/cli/main.ts').main }>} load the CLI's module
 */
export async function runCli(load) {
  try {
    const { main } = await load()
    process.exitCode = await main(process.argv.slice(2), {
      stdout: untilReaderLeaves(process.stdout),
      stderr: untilReaderLeaves(process.stderr),
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

/**
 * A standard stream the CLI writes to until whoever reads it has gone (`validate --json | head`):
 * after that, what it writes is dropped, as a program SIGPIPE ends would drop it, but the command
 * runs to its end and its exit status stands. Node ignores SIGPIPE, so without this the closed
 * pipe was an unhandled 'error' event and a stack trace; and ending there would cut a push off
 * between its sends.
 * @param {NodeJS.WriteStream} stream
 * @returns {{ write(text: string): unknown }}
 */
function untilReaderLeaves(stream) {
  let gone = false
  stream.on('error', (error) => {
    if (gone || /** @type {NodeJS.ErrnoException} */ (error).code === 'EPIPE') gone = true
    else throw error
  })
  return { write: (text) => gone || stream.write(text) }
}
