import { parseArgs, type ParseArgsConfig } from 'node:util'
import { CliError } from './io.ts'

type Options = NonNullable<ParseArgsConfig['options']>

/**
 * `parseArgs` in strict mode with positionals allowed, its errors turned into usage errors of
 * `command`. Node's messages go on to advise about `--`; the first sentence is the useful one.
 */
export function parseCommandArgs<O extends Options>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true })
  } catch (error) {
    if (isParseArgsError(error)) throw new CliError(firstSentence(error.message), command)
    throw error
  }
}

function isParseArgsError(error: unknown): error is Error & { code: string } {
  return error instanceof Error && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')
}

function firstSentence(message: string): string {
  const end = message.indexOf('. ')
  return end < 0 ? message : message.slice(0, end + 1)
}
