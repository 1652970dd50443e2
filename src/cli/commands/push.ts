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
import { plural } from '#shared/plural.ts'
import { sleep } from '#shared/service/resend.ts'
import { createSyncRun, RECOVERED_MESSAGE } from '#shared/sync/engine.ts'
import { ACCEPTED_LINE_END } from '#shared/sync/run-log.ts'
import type { RunStatus } from '#shared/sync/run.ts'
import {
  DEFAULT_REQUIRED_FIELDS,
  gateFieldTitle,
  HOLD_HEADINGS,
  HOLD_REASONS,
  type Hold,
  type HoldReason,
  type RequirableField,
} from '#shared/sync/send-gates.ts'
import { parseCommandArgs } from '../args.ts'
import { CliError, EXIT_INVALID, EXIT_OK, type CliIo, type Output } from '../io.ts'
import { PUSH_USAGE } from '../usage.ts'
import { JournalBusyError, lockPathOf } from '../push/journal-lock.ts'
import { JournalMismatchError, openJournalOutbox, type JournalOutbox } from '../push/journal-outbox.ts'
import { readPlatformList } from '../push/platform-list.ts'
import { fromProfile, tokenFromEnv, type Credentials } from '../push/push-credentials.ts'
import { judgeSend, parseRequire, type PlatformList } from '../push/push-gates.ts'
import { readPushInput, type PushInput } from '../push/push-input.ts'
import { SHEET_ARGS, sheetOptions, showMapping } from '../sheet-options.ts'
import {
  appDroppedFields,
  pushJson,
  pushText,
  reportEntries,
  writeReport,
  type PlatformListJson,
} from '../push/push-report.ts'
import { progressPrinter } from '../push/push-progress.ts'
import { unresolvedFormat, writeUnresolved, type UnresolvedFormat } from '../push/unresolved.ts'

/**
 * `catalog-desk push FILE`: sends SKUs (in batches) or an app creation request to the service
 * through the same sync engine as the app, with a journal file as its outbox so that a re-run
 * resumes where the last one stopped. SKUs pass the app's gates first (push-gates.ts), and a list
 * of the platform's barcodes settles what was left unknown or failed. Exit 0 when everything was
 * synced, 1 otherwise, 2 when nothing could be tried (bad usage, unreadable input or list, a
 * journal of other input).
 */

/** How many items a list on standard error names before it says how many more there are. */
const LISTED_ON_STDERR = 50

/** The app's headings, but a push's required fields may come from --require or the default, not a profile. */
const HEADINGS: Readonly<Record<HoldReason, string>> = {
  ...HOLD_HEADINGS,
  required: 'missing a field this push requires',
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
    require: { type: 'string' },
    unresolved: { type: 'string' },
    'platform-has': { type: 'string' },
    ...SHEET_ARGS,
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
  const requireGiven = values.require === undefined ? undefined : parseRequire(values.require)
  let unresolved: { path: string; format: UnresolvedFormat } | undefined
  if (values.unresolved !== undefined) {
    const format = unresolvedFormat(values.unresolved)
    if (!format) {
      throw new CliError(
        `--unresolved ${values.unresolved}: name a .csv or .xlsx file (the format follows the extension).`,
        'push',
      )
    }
    unresolved = { path: resolve(io.cwd, values.unresolved), format }
  }
  const credentials: Credentials =
    values['token-env'] !== undefined
      ? tokenFromEnv(values['token-env'], env, encoding)
      : await fromProfile(values.profile!, env, {
          tokenEncoding: encoding,
          ...(io.tokens ? { tokens: io.tokens } : {}),
        })
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

  // The profile's required fields, unless --require says otherwise (it may loosen them too: it is
  // the person's call for this push, and said in the list of what is held back).
  const required: readonly RequirableField[] =
    requireGiven ?? profile?.requiredFields ?? DEFAULT_REQUIRED_FIELDS

  const sheet = await sheetOptions(values, io.cwd)
  const input = await readPushInput(file, io.cwd, sheet)
  try {
    // The mapping goes to standard error: standard output is the report (or --json).
    io.stderr.write(showMapping(input.file.mapping, sheet))
    // A column whose header looks like a typo of a field is not read: said before anything is sent.
    for (const note of input.file.suggestions ?? []) io.stderr.write(`note: ${note}\n`)
    // The gates and the reconciliation go by barcodes (a kind's `gated`); an app request is sent as before.
    const gated = input.kind.gated
    if (!gated) {
      for (const option of ['require', 'unresolved', 'platform-has'] as const) {
        if (values[option] !== undefined) {
          throw new CliError(
            `--${option} is for SKUs (their barcodes); ${file} holds an app creation request.`,
            'push',
          )
        }
      }
    }
    if (input.invalid.length > 0) {
      listOnStderr(
        io.stderr,
        `${input.invalid.length} of ${input.items.total} ${input.kind.noun}s do not meet the contract and are not sent:`,
        input.invalid.map((item) => `[${item.index}] ${item.label}: ${item.message}`),
        `("catalog-desk validate ${file}" lists every problem)`,
      )
    }
    // Read whole before the journal is touched: a list that cannot be read changes nothing.
    const platform =
      values['platform-has'] === undefined
        ? undefined
        : await readPlatformList(values['platform-has'], io.cwd)

    const journalPath = resolve(io.cwd, values.journal ?? `${file}.push-journal.jsonl`)
    const reportPath = values.report === undefined ? undefined : resolve(io.cwd, values.report)
    const clashes: Array<[string, string]> = [
      [resolve(io.cwd, file), 'the input file'],
      [journalPath, 'the journal'],
      [lockPathOf(journalPath), 'the journal’s lock'],
    ]
    if (reportPath !== undefined) await checkOutputPath('report', reportPath, clashes)
    if (unresolved !== undefined) {
      await checkOutputPath('unresolved', unresolved.path, [
        ...clashes,
        ...(reportPath === undefined ? [] : [[reportPath, 'the report'] as [string, string]]),
        ...(values['platform-has'] === undefined
          ? []
          : [[resolve(io.cwd, values['platform-has']), 'the platform’s list'] as [string, string]]),
      ])
    }
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

    let held: ReadonlyMap<number, Hold> = new Map()
    let platformList: PlatformListJson | undefined
    try {
      // What a dead process left sending is unknown before anything is judged (the engine would say
      // so only once it starts): a gate or a list must see it as what it is.
      const recovered = await outbox.recoverInterrupted(RECOVERED_MESSAGE)
      if (recovered > 0) {
        io.stderr.write(
          `${plural(recovered, input.kind.noun)} left sending by an earlier run marked unknown: check them on the platform.\n`,
        )
      }
      if (gated) {
        ;({ held, platformList } = await applyGates(io.stderr, {
          input,
          outbox,
          required,
          baseUrl,
          platform,
        }))
      }
    } catch (error) {
      await outbox.close()
      if (error instanceof CliError) throw error
      throw new CliError(`Cannot use the journal ${journalPath}: ${(error as Error).message}`)
    }

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
      // `concurrency` is the most at once: the engine finds how many the service keeps up with.
      {
        runId: input.fingerprint.slice(0, 16),
        kind: input.kind.kind,
        batchSize,
        concurrency,
        adaptive: true,
      },
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
    const entries = reportEntries(input, outbox, held)
    // Automation reads these files: one that was asked for and not written is not a success.
    let written = true
    if (reportPath !== undefined) {
      try {
        await writeReport(reportPath, entries)
      } catch (error) {
        written = false
        io.stderr.write(
          `catalog-desk: cannot write the report ${values.report}: ${(error as Error).message}\n`,
        )
      }
    }
    if (unresolved !== undefined) {
      // Written whatever this run sent (nothing, perhaps): it is the list to check on the platform.
      try {
        const count = await writeUnresolved(unresolved.path, unresolved.format, input, outbox)
        io.stderr.write(
          `${plural(count, input.kind.noun)} left unknown or failed, listed in ${values.unresolved}.\n`,
        )
      } catch (error) {
        written = false
        io.stderr.write(
          `catalog-desk: cannot write the unresolved list ${values.unresolved}: ${(error as Error).message}\n`,
        )
      }
    }
    const dropped = appDroppedFields(input, outbox)
    const json = pushJson(input, summary, finalStatus, outbox, dropped, {
      held: held.size,
      ...(platformList ? { platformList } : {}),
    })
    io.stdout.write(
      values.json ? JSON.stringify(json, null, 2) + '\n' : pushText(input, json, entries, dropped),
    )
    return json.synced === json.total && written ? EXIT_OK : EXIT_INVALID
  } finally {
    input.close()
  }
}

/**
 * Judges the SKUs before the run (push-gates.ts): with a platform list, records its decision in
 * the journal (before anything it sends again leaves), then keeps the held SKUs out of the run and
 * says on standard error what was held and what the list decided.
 */
async function applyGates(
  out: Output,
  context: {
    input: PushInput
    outbox: JournalOutbox
    required: readonly RequirableField[]
    baseUrl: string
    platform: PlatformList | undefined
  },
): Promise<{ held: ReadonlyMap<number, Hold>; platformList?: PlatformListJson }> {
  const { input, outbox, required, baseUrl, platform } = context
  const judgement = judgeSend({
    input,
    required,
    address: baseUrl,
    stateOf: (index) => outbox.detail(index)?.state,
    ...(platform ? { platform } : {}),
  })
  let platformList: PlatformListJson | undefined
  if (platform) {
    const { created, resend, keptBack, unmatched } = judgement
    if (created.length + resend.length > 0) {
      await outbox.decide({
        at: Date.now(),
        source: platform.source,
        message: `Marked as created: on the platform's list ${platform.source}`,
        created: created.map(String),
        resend: resend.map(String),
      })
    }
    platformList = {
      file: platform.source,
      markedCreated: created.length,
      sentAgain: resend.length,
      keptBack: keptBack.size,
      unmatched: unmatched.length,
    }
    out.write(
      `The platform's list ${platform.source} (${plural(platform.barcodes.size, 'barcode')}): ${created.length} marked created, ${resend.length} sent again, ${plural(unmatched.length, 'barcode')} on the list matched no unknown or failed SKU.\n`,
    )
    if (keptBack.size > 0) {
      listOnStderr(
        out,
        keptBack.size === 1
          ? '1 unknown or failed SKU not on the list is held back, not sent again (it stays as it was):'
          : `${keptBack.size} unknown or failed SKUs not on the list are held back, not sent again (they stay as they were):`,
        heldLines(input, keptBack),
      )
    }
  }
  const { held } = judgement
  outbox.withhold(held.keys())
  if (held.size > 0) {
    const counts = HOLD_REASONS.flatMap((reason) => {
      const count = [...held.values()].filter((hold) => hold.reason === reason).length
      return count > 0 ? [`${count} ${HEADINGS[reason]}`] : []
    })
    const requires =
      required.length === 0
        ? 'only a product name and a barcode are required'
        : `required besides a product name and a barcode: ${required.map(gateFieldTitle).join(', ')}`
    listOnStderr(
      out,
      `${held.size} of ${plural(input.items.total, input.kind.noun)} are held back and not sent (${requires}): ${counts.join('; ')}.`,
      heldLines(input, held),
    )
  }
  return platformList ? { held, platformList } : { held }
}

/** One line an item held back: where it is, how it is named, and why. */
function heldLines(input: PushInput, holds: ReadonlyMap<number, Hold>): string[] {
  return [...holds]
    .sort(([a], [b]) => a - b)
    .map(([index, hold]) => {
      const row = input.rowOf(index)
      return `[${index}] ${input.labelOf(index)}: ${row === undefined ? '' : `row ${row}: `}${hold.message}`
    })
}

/** A heading and its lines on standard error, the first few of them, then how many more. */
function listOnStderr(
  out: Output,
  heading: string,
  lines: readonly string[],
  more = '(--report lists them all)',
): void {
  out.write(`${heading}\n`)
  for (const line of lines.slice(0, LISTED_ON_STDERR)) out.write(`  ${line}\n`)
  if (lines.length > LISTED_ON_STDERR) out.write(`  … and ${lines.length - LISTED_ON_STDERR} more ${more}\n`)
}

/**
 * Refuses, before anything is sent, an output file that would overwrite the input, the journal
 * (what keeps a re-run from sending items twice) or another file of this push, or that cannot be
 * written where asked.
 */
async function checkOutputPath(
  option: string,
  path: string,
  clashes: ReadonlyArray<readonly [string, string]>,
): Promise<void> {
  for (const [other, what] of clashes) {
    if (other === path) {
      throw new CliError(`--${option} ${path} is ${what}; write it elsewhere.`, 'push')
    }
  }
  try {
    await access(dirname(path), constants.W_OK)
  } catch {
    throw new CliError(`--${option} ${path}: its folder does not exist or cannot be written.`, 'push')
  }
}
