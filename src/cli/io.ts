import type { TokenStore } from '#node/secrets/token-store.ts'

/** Where a command writes and which folder relative paths start from; passed in so tests can capture it. */
export interface CliIo {
  stdout: Output
  stderr: Output
  cwd: string
  /**
   * Stops a command that runs until told to (`sandbox`). Without it, such a command stops on
   * SIGINT or SIGTERM; tests pass one so they can run it in-process.
   */
  signal?: AbortSignal
  /** The environment `push --token-env` and `--profile` read; process.env when absent. */
  env?: Record<string, string | undefined>
  /** The keychain `push --profile` reads its token from; the OS keychain when absent (tests pass their own). */
  tokens?: Pick<TokenStore, 'lookup' | 'availability'>
}

/** The part of a stream the CLI uses: `process.stdout` fits, and so does a string collector in a test. */
export interface Output {
  write(text: string): unknown
}

/** Exit statuses, as the usage text documents them. */
export const EXIT_OK = 0
/** The document was read but does not meet the contract. */
export const EXIT_INVALID = 1
/** Nothing was checked: bad usage, or a file that cannot be read, parsed or written. */
export const EXIT_TROUBLE = 2

/**
 * A problem that stops a command before it does its work (bad usage, an unreadable file). `main`
 * prints the message and returns `EXIT_TROUBLE`; `usageOf` names the command whose help to point at.
 */
export class CliError extends Error {
  readonly usageOf: string | undefined

  constructor(message: string, usageOf?: string) {
    super(message)
    this.name = 'CliError'
    this.usageOf = usageOf
  }
}

/**
 * `text` as one word of a shell command line, quoted only when it must be: a path in a message's
 * advice is pasted into a terminal as it is (macOS's "Application Support" has a space).
 */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}
