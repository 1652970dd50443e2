import { resolve } from 'node:path'
import type { SettingsNamed } from '#node/service/outcome-messages.ts'
import { canonicalAddress } from '#shared/http-address.ts'
import {
  DEFAULT_SENDING,
  serviceUrlProblem,
  PROFILE_LIMITS,
  TOKEN_ENCODINGS,
  type Profile,
  type Timeouts,
  type TokenEncoding,
} from '#shared/profile.ts'
import { DEFAULT_REQUIRED_FIELDS, type RequirableField } from '#shared/sync/send-gates.ts'
import { parseCommandArgs } from '../args.ts'
import { CliError, type CliIo } from '../io.ts'
import { SHEET_ARGS } from '../sheet-options.ts'
import { fromProfile, noToken, tokenFromEnv, type Credentials } from './push-credentials.ts'
import { parseRequire } from './push-gates.ts'
import { unresolvedFormat, type UnresolvedFormat } from './unresolved.ts'

/**
 * What `push` is told on its command line, read and checked whole before the input is opened:
 * everything that can be refused (bad usage, a token that cannot be had, an address the profile's
 * token does not belong to, a number out of range) is refused before anything is read or sent.
 * Its own module so the command reads as its stages: options, input, journal, judgement, runs,
 * report.
 */

const PUSH_ARGS = {
  'base-url': { type: 'string' },
  'token-env': { type: 'string' },
  'token-encoding': { type: 'string' },
  profile: { type: 'string' },
  'batch-size': { type: 'string' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  journal: { type: 'string' },
  report: { type: 'string' },
  json: { type: 'boolean' },
  require: { type: 'string' },
  'hold-bad-check-digits': { type: 'boolean' },
  unresolved: { type: 'string' },
  'platform-has': { type: 'string' },
  'no-updates': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  ...SHEET_ARGS,
  help: { type: 'boolean', short: 'h' },
} as const

/** The command line's options as parsed (a sheet's options among them, for `sheetOptions`). */
export type PushValues = ReturnType<typeof parsePushArgs>['values']

/** Everything the push was told, checked; `values` keeps the options as given (for messages and paths). */
export interface PushOptions {
  file: string
  values: PushValues
  dryRun: boolean
  env: Record<string, string | undefined>
  unresolved?: { path: string; format: UnresolvedFormat }
  credentials: Credentials
  baseUrl: string
  /** Where the address and token came from, as the service's messages' advice names them. */
  settings: SettingsNamed
  profile?: Profile
  batchSize: number
  concurrency: number
  timeouts: Timeouts
  required: readonly RequirableField[]
  /** Whether a barcode whose GTIN check digit is wrong holds its SKU back: the flag's word, else the profile's. */
  holdBadCheckDigits: boolean
}

/** The push's options, or `help` when it was asked for (nothing else is checked then). */
export async function readPushOptions(args: string[], io: CliIo): Promise<PushOptions | 'help'> {
  const { values, positionals } = parsePushArgs(args)
  if (values.help) return 'help'
  const [file, ...extra] = positionals
  if (file === undefined) throw new CliError('Missing FILE: name the JSON, CSV or XLSX file to send.', 'push')
  if (extra.length > 0) throw new CliError(`push sends one FILE; also given: ${extra.join(' ')}`, 'push')
  const dryRun = values['dry-run'] === true
  checkTokenOptions(values, dryRun)
  const env = io.env ?? process.env

  // Everything that can be refused is checked before anything is sent.
  const encoding = parseTokenEncoding(values['token-encoding'])
  const requireGiven = values.require === undefined ? undefined : parseRequire(values.require)
  const unresolved = unresolvedOption(values.unresolved, io.cwd)
  // A dry run sends nothing, so it reads no token: only the profile's address and settings.
  const credentials: Credentials =
    values.profile !== undefined
      ? await fromProfile(values.profile, env, {
          tokenEncoding: encoding,
          withoutToken: dryRun,
          ...(io.tokens ? { tokens: io.tokens } : {}),
        })
      : dryRun
        ? // No token: nothing is sent, so none is refused.
          {
            tokenEncoding: encoding ?? DEFAULT_SENDING.tokenEncoding,
            getToken: noToken,
            tokenRemedy: 'Give the token with --token-env or --profile',
          }
        : tokenFromEnv(values['token-env']!, env, encoding)
  const baseUrl = baseUrlOf(values['base-url'], credentials)
  const profile = credentials.profile
  return {
    file,
    values,
    dryRun,
    env,
    ...(unresolved ? { unresolved } : {}),
    credentials,
    baseUrl,
    settings: {
      address: values['base-url'] === undefined ? "the profile's base URL" : '--base-url',
      tokenRemedy: credentials.tokenRemedy,
    },
    ...(profile ? { profile } : {}),
    ...sendingOf(values, profile),
    // The profile's required fields, unless --require says otherwise (it may loosen them too: it is
    // the person's call for this push, and said in the list of what is held back).
    required: requireGiven ?? profile?.requiredFields ?? DEFAULT_REQUIRED_FIELDS,
    holdBadCheckDigits: values['hold-bad-check-digits'] === true || profile?.holdBadCheckDigits === true,
  }
}

function parsePushArgs(args: string[]) {
  return parseCommandArgs('push', args, PUSH_ARGS)
}

/** A push takes its token one way; a dry run takes none, and writes no file. */
function checkTokenOptions(values: PushValues, dryRun: boolean): void {
  if (dryRun) {
    if (values['token-env'] !== undefined && values.profile !== undefined)
      throw new CliError('Give at most one of --token-env NAME or --profile NAME.', 'push')
    for (const option of ['report', 'unresolved'] as const) {
      if (values[option] !== undefined)
        throw new CliError(
          `--${option} writes a file, and --dry-run writes nothing: leave out one of them.`,
          'push',
        )
    }
  } else if ((values['token-env'] === undefined) === (values.profile === undefined)) {
    throw new CliError('Give the token with exactly one of --token-env NAME or --profile NAME.', 'push')
  }
}

function parseTokenEncoding(value: string | undefined): TokenEncoding | undefined {
  if (value === undefined) return undefined
  const encoding = TOKEN_ENCODINGS.find((known) => known === value)
  if (!encoding) {
    throw new CliError(`--token-encoding is ${TOKEN_ENCODINGS.join(' or ')}, not "${value}".`, 'push')
  }
  return encoding
}

/** `--unresolved FILE`: where, and in which format (its extension's). */
function unresolvedOption(
  value: string | undefined,
  cwd: string,
): { path: string; format: UnresolvedFormat } | undefined {
  if (value === undefined) return undefined
  const format = unresolvedFormat(value)
  if (!format) {
    throw new CliError(
      `--unresolved ${value}: name a .csv or .xlsx file (the format follows the extension).`,
      'push',
    )
  }
  return { path: resolve(cwd, value), format }
}

/**
 * `--base-url`, else the profile's, in the URL standard's spelling: "http://LOCALHOST:4010/" is
 * the address "http://localhost:4010" is, with one journal. A profile's token is never sent to
 * another address.
 */
function baseUrlOf(value: string | undefined, credentials: Credentials): string {
  const typed = value?.trim().replace(/\/+$/, '')
  const problem = typed === undefined ? undefined : serviceUrlProblem(typed)
  if (problem) throw new CliError(`--base-url "${typed}": ${problem}.`, 'push')
  const given = typed === undefined ? undefined : canonicalAddress(typed)
  const profiles = credentials.baseUrl === undefined ? undefined : canonicalAddress(credentials.baseUrl)
  if (profiles !== undefined && given !== undefined && given !== profiles) {
    throw new CliError(
      `The profile's token belongs to ${credentials.baseUrl}; it is not sent to ${given}. Leave out --base-url or use --token-env.`,
      'push',
    )
  }
  const baseUrl = given ?? profiles
  if (baseUrl === undefined) throw new CliError('Missing --base-url: the address of the service.', 'push')
  return baseUrl
}

/** How the push sends: the command line's numbers, else the profile's, else the app's defaults. */
function sendingOf(
  values: PushValues,
  profile: Profile | undefined,
): Pick<PushOptions, 'batchSize' | 'concurrency' | 'timeouts'> {
  const sending = profile ?? DEFAULT_SENDING
  const batchSize =
    wholeNumber('batch-size', values['batch-size'], PROFILE_LIMITS.batchSize) ?? sending.batchSize
  const concurrency =
    wholeNumber('concurrency', values.concurrency, PROFILE_LIMITS.concurrency) ?? sending.concurrency
  const { min, total } = PROFILE_LIMITS.timeoutSeconds
  const timeoutSeconds = wholeNumber('timeout', values.timeout, { min, max: total })
  return { batchSize, concurrency, timeouts: timeoutsFor(timeoutSeconds, sending.timeouts) }
}

function wholeNumber(
  option: string,
  value: string | undefined,
  { min, max }: { min: number; max: number },
): number | undefined {
  if (value === undefined) return undefined
  const number = /^\d+$/.test(value) ? Number(value) : NaN
  if (!(number >= min && number <= max)) {
    throw new CliError(`--${option} must be a whole number from ${min} to ${max}, not "${value}".`, 'push')
  }
  return number
}

function timeoutsFor(seconds: number | undefined, base: Timeouts): Timeouts {
  if (seconds === undefined) return base
  const totalMs = seconds * 1_000
  return {
    connectMs: Math.min(base.connectMs, totalMs),
    responseMs: Math.min(base.responseMs, totalMs),
    totalMs,
  }
}
