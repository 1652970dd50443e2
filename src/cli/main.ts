import { readFile } from 'node:fs/promises'
import { checkAssetsCommand } from './commands/check-assets.ts'
import { convertCommand } from './commands/convert.ts'
import { pushCommand } from './commands/push.ts'
import { sandboxCommand } from './commands/sandbox.ts'
import { schemaCommand } from './commands/schema.ts'
import { validateCommand } from './commands/validate.ts'
import { CliError, EXIT_OK, EXIT_TROUBLE, type CliIo } from './io.ts'
import { COMMAND_USAGE, MAIN_USAGE } from './usage.ts'

export type { CliIo } from './io.ts'

type Command = (args: string[], io: CliIo) => Promise<number>

const COMMANDS: Record<string, Command> = {
  validate: validateCommand,
  convert: convertCommand,
  schema: schemaCommand,
  sandbox: sandboxCommand,
  push: pushCommand,
  'check-assets': checkAssetsCommand,
}

/**
 * The CLI: runs one command and returns its exit status. It never calls `process.exit`, so tests
 * run it in-process and the binary sets `process.exitCode`, letting piped output drain.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv
  try {
    if (first === undefined) {
      io.stderr.write(MAIN_USAGE)
      return EXIT_TROUBLE
    }
    if (first === '--help' || first === '-h') {
      io.stdout.write(MAIN_USAGE)
      return EXIT_OK
    }
    if (first === 'help') {
      const topic = rest[0] ?? ''
      if (topic && !Object.hasOwn(COMMAND_USAGE, topic)) throw new CliError(`Unknown command '${topic}'.`, '')
      io.stdout.write(COMMAND_USAGE[topic] ?? MAIN_USAGE)
      return EXIT_OK
    }
    if (first === '--version' || first === '-v') {
      io.stdout.write(`${await version()}\n`)
      return EXIT_OK
    }
    if (first.startsWith('-')) throw new CliError(`Unknown option '${first}'.`, '')
    const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined
    if (!command) throw new CliError(`Unknown command '${first}'.`, '')
    return await command(rest, io)
  } catch (error) {
    if (!(error instanceof CliError)) throw error
    io.stderr.write(`catalog-desk: ${error.message}\n`)
    if (error.usageOf !== undefined) {
      const help = error.usageOf ? `catalog-desk ${error.usageOf} --help` : 'catalog-desk --help'
      io.stderr.write(`Run "${help}" for usage.\n`)
    }
    return EXIT_TROUBLE
  }
}

/** The package's version, set by the CLI's build (vite.cli.config.ts); undeclared when the sources run as they are. */
declare const __CATALOG_DESK_VERSION__: string | undefined

async function version(): Promise<string> {
  if (typeof __CATALOG_DESK_VERSION__ === 'string') return __CATALOG_DESK_VERSION__
  // The sources, run by Node's type stripping: package.json is two folders up from src/cli.
  const manifest = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: string
  }
  return manifest.version ?? 'unknown'
}
