import { access, constants } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { createServiceClient } from '#node/service/client.ts'
import {
  DEFAULT_SENDING,
  serviceUrlProblem,
  PROFILE_LIMITS,
  TOKEN_ENCODINGS,
  type Timeouts,
  type TokenEncoding,
} from '#shared/profile.ts'
import { sleep } from '#shared/service/resend.ts'
import { createSyncRun } from '#shared/sync/engine.ts'
import { ACCEPTED_LINE_END } from '#shared/sync/run-log.ts'
import type { RunStatus } from '#shared/sync/run.ts'
import { parseCommandArgs } from '../args.ts'
import { CliError, EXIT_INVALID, EXIT_OK, type CliIo } from '../io.ts'
import { PUSH_USAGE } from '../usage.ts'
import { JournalBusyError, lockPathOf } from '../push/journal-lock.ts'
import { JournalMismatchError, openJournalOutbox, type JournalOutbox } from '../push/journal-outbox.ts'
import { fromProfile, tokenFromEnv, type Credentials } from '../push/push-credentials.ts'
import { readPushInput } from '../push/push-input.ts'
import { appDroppedFields, pushJson, pushText, reportEntries, writeReport } from '../push/push-report.ts'
import { progressPrinter } from '../push/push-progress.ts'

/**
 * `catalog-desk push FILE`: sends SKUs (in batches) or an app creation request to the service
 * through the same sync engine as the app, with a journal file as its outbox so that a re-run
 * resumes where the last one stopped. Exit 0 when everything was synced, 1 otherwise, 2 when
 * nothing could be tried (bad usage, unreadable input, a journal of other input).
 */

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

function parseTokenEncoding(value: string | undefined): TokenEncoding | undefined {
  if (value === undefined) return undefined
  const encoding = TOKEN_ENCODINGS.find((known) => known === value)
  if (!encoding) {
    throw new CliError(`--token-encoding is ${TOKEN_ENCODINGS.join(' or ')}, not "${value}".`, 'push')
  }
  return encoding
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

/** Ends when the caller's signal fires, or on Ctrl-C; a second Ctrl-C is left to Node (it ends the process). */
function onInterrupt(signal: AbortSignal | undefined, cancel: () => void): () => void {
  if (signal) {
    if (signal.aborted) cancel()
    signal.addEventListener('abort', cancel, { once: true })
    return () => signal.removeEventListener('abort', cancel)
  }
  const handler = () => {
    process.off('SIGINT', handler)
    cancel()
  }
  process.on('SIGINT', handler)
  return () => process.off('SIGINT', handler)
}

export async function pushCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('push', args, {
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
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(PUSH_USAGE)
    return EXIT_OK
  }
  const [file, ...extra] = positionals
  if (file === undefined) throw new CliError('Missing FILE: name the JSON, CSV or XLSX file to send.', 'push')
  if (extra.length > 0) throw new CliError(`push sends one FILE; also given: ${extra.join(' ')}`, 'push')
  if ((values['token-env'] === undefined) === (values.profile === undefined)) {
    throw new CliError('Give the token with exactly one of --token-env NAME or --profile NAME.', 'push')
  }
  const env = io.env ?? process.env

  // Everything that can be refused is checked before anything is sent.
  const encoding = parseTokenEncoding(values['token-encoding'])
  const credentials: Credentials =
    values['token-env'] !== undefined
      ? tokenFromEnv(values['token-env'], env, encoding)
      : await fromProfile(values.profile!, env, { tokenEncoding: encoding })
  const given = values['base-url']?.trim().replace(/\/+$/, '')
  const problem = given === undefined ? undefined : serviceUrlProblem(given)
  if (problem) throw new CliError(`--base-url "${given}": ${problem}.`, 'push')
  if (credentials.baseUrl !== undefined && given !== undefined && given !== credentials.baseUrl) {
    throw new CliError(
      `The profile's token belongs to ${credentials.baseUrl}; it is not sent to ${given}. Leave out --base-url or use --token-env.`,
      'push',
    )
  }
  const baseUrl = given ?? credentials.baseUrl
  if (baseUrl === undefined) throw new CliError('Missing --base-url: the address of the service.', 'push')
  const profile = credentials.profile
  const sending = profile ?? DEFAULT_SENDING
  const batchSize =
    wholeNumber('batch-size', values['batch-size'], PROFILE_LIMITS.batchSize) ?? sending.batchSize
  const concurrency =
    wholeNumber('concurrency', values.concurrency, PROFILE_LIMITS.concurrency) ?? sending.concurrency
  const { min, total } = PROFILE_LIMITS.timeoutSeconds
  const timeoutSeconds = wholeNumber('timeout', values.timeout, { min, max: total })
  const timeouts = timeoutsFor(timeoutSeconds, sending.timeouts)

  const input = await readPushInput(file, io.cwd)
  if (input.invalid.length > 0) {
    io.stderr.write(
      `${input.invalid.length} of ${input.items.total} ${input.kind.noun}s do not meet the contract and are not sent:\n`,
    )
    for (const item of input.invalid.slice(0, 50))
      io.stderr.write(`  [${item.index}] ${item.label}: ${item.message}\n`)
    if (input.invalid.length > 50)
      io.stderr.write(
        `  … and ${input.invalid.length - 50} more ("catalog-desk validate ${file}" lists every problem)\n`,
      )
  }

  const journalPath = resolve(io.cwd, values.journal ?? `${file}.push-journal.jsonl`)
  const reportPath = values.report === undefined ? undefined : resolve(io.cwd, values.report)
  if (reportPath !== undefined) await checkReportPath(reportPath, resolve(io.cwd, file), journalPath)
  let outbox: JournalOutbox
  try {
    outbox = await openJournalOutbox({
      path: journalPath,
      fingerprint: input.fingerprint,
      baseUrl,
      kind: input.kind.kind,
      items: input.items,
    })
  } catch (error) {
    if (error instanceof JournalMismatchError || error instanceof JournalBusyError) {
      throw new CliError(error.message, 'push')
    }
    throw new CliError(`Cannot use the journal ${journalPath}: ${(error as Error).message}`)
  }
  if (outbox.resumed) io.stderr.write(`Resuming from the journal ${journalPath}.\n`)

  const transport = createServiceClient({
    baseUrl,
    tokenEncoding: credentials.tokenEncoding,
    timeouts,
    getToken: credentials.getToken,
  })
  const progress = progressPrinter(io.stderr, input.kind, () => Date.now())
  /** A pause has nobody to resume it here: the command ends, and a re-run resumes from the journal. */
  let pausedWith: RunStatus | undefined
  const run = createSyncRun(
    { outbox, transport, clock: { now: () => Date.now(), sleep, random: Math.random } },
    { runId: input.fingerprint.slice(0, 16), kind: input.kind.kind, batchSize, concurrency },
    {
      onProgress: progress.counts,
      onLog: (line) => {
        if (!line.endsWith(ACCEPTED_LINE_END)) io.stderr.write(`${line}\n`)
      },
      onStatus: (status) => {
        if (status.state === 'paused' && status.reason !== 'requested') {
          pausedWith = status
          run.cancel()
        }
      },
    },
  )
  const stopListening = onInterrupt(io.signal, () => run.cancel())
  let summary
  try {
    summary = await run.start()
  } finally {
    stopListening()
    progress.done()
    await outbox.close()
  }

  const finalStatus = pausedWith ?? summary.status
  const entries = reportEntries(input, outbox)
  let reportWritten = true
  if (reportPath !== undefined) {
    try {
      await writeReport(reportPath, entries)
    } catch (error) {
      reportWritten = false
      io.stderr.write(`catalog-desk: cannot write the report ${values.report}: ${(error as Error).message}\n`)
    }
  }
  const dropped = appDroppedFields(input, outbox)
  const json = pushJson(input, summary, finalStatus, outbox, dropped)
  io.stdout.write(
    values.json ? JSON.stringify(json, null, 2) + '\n' : pushText(input, json, entries, dropped),
  )
  // Automation reads the report: one that was asked for and not written is not a success.
  return json.synced === json.total && reportWritten ? EXIT_OK : EXIT_INVALID
}

/**
 * Refuses, before anything is sent, a report that would overwrite the input or the journal (the
 * journal is what keeps a re-run from sending items twice), or that cannot be written where asked.
 */
async function checkReportPath(reportPath: string, inputPath: string, journalPath: string): Promise<void> {
  const clashes: Array<[string, string]> = [
    [inputPath, 'the input file'],
    [journalPath, 'the journal'],
    [lockPathOf(journalPath), 'the journal’s lock'],
  ]
  for (const [path, what] of clashes) {
    if (path === reportPath) {
      throw new CliError(`--report ${reportPath} is ${what}; write the report elsewhere.`, 'push')
    }
  }
  try {
    await access(dirname(reportPath), constants.W_OK)
  } catch {
    throw new CliError(`--report ${reportPath}: its folder does not exist or cannot be written.`, 'push')
  }
}
