import { access, constants, mkdir } from 'node:fs/promises'
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
import { counted } from '#shared/counted.ts'
import { createSyncRun, RECOVERED_MESSAGE } from '#shared/sync/engine.ts'
import { ACCEPTED_LINE_END } from '#shared/sync/run-log.ts'
import type { SkuUpdateArgument } from '#shared/service/operations.ts'
import type { RunStatus, SyncRun } from '#shared/sync/run.ts'
import {
  DEFAULT_REQUIRED_FIELDS,
  gateFieldTitle,
  HOLD_HEADINGS,
  HOLD_REASONS,
  type Hold,
  type RequirableField,
} from '#shared/sync/send-gates.ts'
import { skuUpdatePlan } from '#shared/sync/sku-update.ts'
import { parseCommandArgs } from '../args.ts'
import { CliError, EXIT_INVALID, EXIT_OK, type CliIo, type Output } from '../io.ts'
import { PUSH_USAGE } from '../usage.ts'
import { JournalBusyError, lockPathOf } from '../push/journal-lock.ts'
import { legacyAdoption, readLegacyJournal } from '../push/journal-legacy.ts'
import {
  JournalMismatchError,
  openJournal,
  type Journal,
  type JournalAction,
  type JournalRecord,
  type RunItem,
} from '../push/journal-outbox.ts'
import { defaultJournalPath } from '../push/journal-path.ts'
import { readPlatformList } from '../push/platform-list.ts'
import { appDataDir, fromProfile, noToken, tokenFromEnv, type Credentials } from '../push/push-credentials.ts'
import { dryRunJson, dryRunText } from '../push/push-dry-run.ts'
import {
  judgePush,
  parseRequire,
  type PlatformList,
  type PushHoldReason,
  type PushJudgement,
} from '../push/push-gates.ts'
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
import { systemClock } from '#shared/sync/system-clock.ts'

/**
 * `catalog-desk push FILE`: sends SKUs or an app creation request to the service through the same
 * sync engine as the app, with the destination's journal as its outbox (journal-outbox.ts): SKUs
 * are matched by barcode with what was sent there before, whatever file they came from, so what is
 * new is created (in batches), what changed since is updated (one a request, only the changed
 * fields), and what is unchanged is not sent. SKUs pass the app's gates first (push-gates.ts), and
 * a list of the platform's barcodes (and ids) settles what was left unknown or failed. Exit 0 when
 * everything is synced, 1 otherwise, 2 when nothing could be tried (bad usage, unreadable input or
 * list, a journal that cannot be used). `--dry-run` judges the same way and stops there: it says
 * what would be sent and held (push-dry-run.ts), sends nothing, reads no token and writes nothing
 * (the journal is read without its lock: journal-outbox.ts).
 */

/** How many items a list on standard error names before it says how many more there are. */
const LISTED_ON_STDERR = 50

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
    'no-updates': { type: 'boolean' },
    'dry-run': { type: 'boolean' },
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
  const dryRun = values['dry-run'] === true
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
  // A dry run sends nothing, so it reads no token: only the profile's address and settings.
  const credentials: Credentials =
    values.profile !== undefined
      ? await fromProfile(values.profile, env, {
          tokenEncoding: encoding,
          withoutToken: dryRun,
          ...(io.tokens ? { tokens: io.tokens } : {}),
        })
      : dryRun
        ? { tokenEncoding: encoding ?? DEFAULT_SENDING.tokenEncoding, getToken: noToken }
        : tokenFromEnv(values['token-env']!, env, encoding)
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

    const kind = input.kind.kind
    const journalPath =
      values.journal === undefined
        ? defaultJournalPath(appDataDir(env), baseUrl, kind)
        : resolve(io.cwd, values.journal)
    const reportPath = values.report === undefined ? undefined : resolve(io.cwd, values.report)
    const clashes: Array<[string, string]> = [
      [resolve(io.cwd, file), 'the input file'],
      [journalPath, 'the journal'],
      [lockPathOf(journalPath), 'the journal’s lock'],
      [legacyJournalPath(io.cwd, file), 'where an earlier catalog-desk kept the journal of FILE'],
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
    const journal = await openPushJournal(io.stderr, {
      input,
      file,
      baseUrl,
      path: journalPath,
      named: values.journal !== undefined,
      cwd: io.cwd,
      dryRun,
    })

    let judgement: PushJudgement
    let platformList: PlatformListJson | undefined
    try {
      // What a dead process left sending is unknown before anything is judged (the engine would say
      // so only once it starts): a gate or a list must see it as what it is.
      const recovered = await journal.recoverInterrupted(RECOVERED_MESSAGE)
      if (recovered.create > 0) {
        io.stderr.write(
          `${counted(recovered.create, input.kind.noun)} left sending by an earlier run ${dryRun ? 'would be marked' : 'marked'} unknown: check them on the platform.\n`,
        )
      }
      if (recovered.update > 0) {
        io.stderr.write(
          `${counted(recovered.update, 'update')} left sending by an earlier run: sent again in this push (an update is idempotent).\n`,
        )
      }
      ;({ judgement, platformList } = await judge(io.stderr, {
        input,
        journal,
        required,
        holdBadCheckDigits: profile?.holdBadCheckDigits === true,
        baseUrl,
        platform,
        noUpdates: values['no-updates'] === true,
        dryRun,
      }))
    } catch (error) {
      await journal.close()
      if (error instanceof CliError) throw error
      throw new CliError(`Cannot use the journal ${journalPath}: ${(error as Error).message}`)
    }
    if (dryRun) {
      try {
        const standing = (index: number) => standingWords(journal.record(input.keyOf(index))?.last)
        const { json, groups } = dryRunJson(input, judgement, HEADINGS, standing, platformList)
        io.stdout.write(values.json ? JSON.stringify(json, null, 2) + '\n' : dryRunText(input, json, groups))
        return json.sendable === json.total ? EXIT_OK : EXIT_INVALID
      } finally {
        await journal.close()
      }
    }

    const transport = createServiceClient({
      baseUrl,
      tokenEncoding: credentials.tokenEncoding,
      timeouts,
      getToken: credentials.getToken,
    })
    // What stands there once an item is synced, created or updated: the SKU as FILE has it.
    const stands = (item: RunItem) => ({
      payload: input.payloadOf(item.index),
      fingerprint: input.fingerprintOf(item.index),
    })
    const items = {
      create: runItems(input, judgement, 'create'),
      update: runItems(input, judgement, 'update'),
    }
    const runs = {
      create: journal.outbox({
        action: 'create',
        items: items.create,
        send: (item) => input.payloadOf(item.index),
        stands,
      }),
      update: journal.outbox({
        action: 'update',
        items: items.update,
        send(item) {
          const current = input.payloadOf(item.index) as Record<string, unknown>
          // An update whose outcome nobody knows is sent whole: there is nothing sure to diff against.
          const base = judgement.resent.has(item.index) ? undefined : journal.standingPayload(item.key)
          const argument: SkuUpdateArgument = {
            skuId: journal.record(item.key)!.id!,
            fields: skuUpdatePlan(base, current).fields,
          }
          return argument
        },
        stands,
      }),
    }

    /** The run going now, which Ctrl-C cancels; and whether it came, so no further run starts. */
    let current: SyncRun | undefined
    let interrupted = false
    let finalStatus: RunStatus = { state: 'finished', cancelled: false }
    const stopListening = onInterrupt(io.signal, () => {
      interrupted = true
      current?.cancel()
    })
    try {
      // Creations first, then updates: each through the same engine, one run after the other. A run
      // that ends early (paused, stopped, cancelled) ends the push: a re-run sends the rest.
      for (const action of ['create', 'update'] as const) {
        if (items[action].length === 0) continue
        if (interrupted) {
          finalStatus = { state: 'finished', cancelled: true }
          break
        }
        const progress = progressPrinter(
          io.stderr,
          input.kind,
          systemClock.now,
          action === 'create' ? 'Progress' : 'Updates',
        )
        /** A pause has nobody to resume it here: the command ends, and a re-run resumes from the journal. */
        let pausedWith: RunStatus | undefined
        const run = createSyncRun(
          { outbox: runs[action], transport, clock: systemClock },
          // `concurrency` is the most at once: the engine finds how many the service keeps up with.
          {
            runId: `${input.fingerprint.slice(0, 16)}-${action}`,
            kind,
            action,
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
        current = run
        if (interrupted) run.cancel()
        try {
          const summary = await run.start()
          finalStatus = pausedWith ?? summary.status
        } finally {
          progress.done()
        }
        if (finalStatus.state !== 'finished' || finalStatus.cancelled) break
      }
    } finally {
      stopListening()
      await journal.close()
    }

    const entries = reportEntries({
      input,
      judgement,
      journal,
      runs,
      markedMessage: platform === undefined ? undefined : markedMessage(platform),
    })
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
        const count = await writeUnresolved(unresolved.path, unresolved.format, input, journal, entries)
        io.stderr.write(
          `${counted(count, input.kind.noun)} left unknown or failed, listed in ${values.unresolved}.\n`,
        )
      } catch (error) {
        written = false
        io.stderr.write(
          `catalog-desk: cannot write the unresolved list ${values.unresolved}: ${(error as Error).message}\n`,
        )
      }
    }
    const dropped = appDroppedFields(input, journal)
    const app = input.kind.keepsAnswer ? journal.record(input.keyOf(0)) : undefined
    const json = pushJson(
      input,
      entries,
      finalStatus,
      app?.stands === undefined ? undefined : { ...(app.id === undefined ? {} : { id: app.id }), dropped },
      platformList,
    )
    io.stdout.write(
      values.json ? JSON.stringify(json, null, 2) + '\n' : pushText(input, json, entries, dropped),
    )
    // Changes left out by --no-updates were asked for: they do not fail the push.
    return json.synced + json.notUpdated === json.total && written ? EXIT_OK : EXIT_INVALID
  } finally {
    input.close()
  }
}

/** The items a run of the push sends, in input order. */
function runItems(input: PushInput, judgement: PushJudgement, action: JournalAction): RunItem[] {
  const items: RunItem[] = []
  judgement.plans.forEach((plan, index) => {
    if (plan === action) items.push({ key: input.keyOf(index), index, label: input.labelOf(index) })
  })
  return items
}

/** Where earlier versions kept the journal of FILE by default (journal-legacy.ts). */
const legacyJournalPath = (cwd: string, file: string) => `${resolve(cwd, file)}.push-journal.jsonl`

const markedMessage = (platform: PlatformList) =>
  `Marked as created: on the platform's list ${platform.source}`

/**
 * The destination's journal, opened; a journal of the earlier format is carried over when it was
 * written for this input as it is (journal-legacy.ts): the one `--journal` names, or without it
 * the one an earlier version kept beside FILE. What cannot be used stops the command (exit 2).
 */
async function openPushJournal(
  out: Output,
  options: {
    input: PushInput
    file: string
    baseUrl: string
    path: string
    named: boolean
    cwd: string
    /** Read the journal, and create, lock or write nothing. */
    dryRun: boolean
  },
): Promise<Journal> {
  const { input, file, baseUrl, path, dryRun } = options
  const kind = input.kind.kind
  let journal: Journal
  try {
    if (!options.named && !dryRun) await mkdir(dirname(path), { recursive: true })
    journal = await openJournal({
      path,
      baseUrl,
      kind,
      adoptLegacy: (legacy) => legacyAdoption(path, legacy, input, RECOVERED_MESSAGE),
      dryRun,
    })
  } catch (error) {
    if (error instanceof JournalMismatchError || error instanceof JournalBusyError) {
      throw new CliError(error.message, 'push')
    }
    throw new CliError(`Cannot use the journal ${path}: ${(error as Error).message}`)
  }
  try {
    if (!options.named) {
      const besideFile = legacyJournalPath(options.cwd, file)
      const legacy = readLegacyJournal(besideFile, { baseUrl, kind })
      if (legacy && !journal.adopted(legacy.header.fingerprint)) {
        const adoption = legacyAdoption(besideFile, legacy, input, RECOVERED_MESSAGE)
        await journal.adopt(adoption)
        out.write(
          `The journal an earlier catalog-desk kept beside ${file} ${dryRun ? 'would be' : 'is'} carried over (${counted(adoption.records.length, input.kind.noun)} it sent, by ${input.kind.gated ? 'barcode' : 'name'}); ${besideFile} is left as it was.\n`,
        )
      }
    }
  } catch (error) {
    await journal.close()
    if (error instanceof JournalMismatchError || error instanceof JournalBusyError) {
      throw new CliError(error.message, 'push')
    }
    throw new CliError(`Cannot use the journal ${path}: ${(error as Error).message}`)
  }
  const read = dryRun ? '; read, not written: a dry run' : ''
  out.write(
    journal.resumed
      ? `Journal of ${baseUrl}: ${path} (${counted(journal.size, input.kind.noun)} sent there before${read}).\n`
      : `Journal of ${baseUrl}: ${path} (${dryRun ? 'none yet; a dry run creates none' : 'new'}).\n`,
  )
  return journal
}

/** Why a dry run says an item is left as it stands: what an earlier push left of it. */
function standingWords(last: JournalRecord['last']): string {
  const what = last?.action === 'update' ? 'An update' : 'A creation'
  const state = last?.state === 'sending' || last === undefined ? 'unknown' : last.state
  const why = last?.message ? `: ${last.message}` : ''
  return `${what} an earlier push sent is ${state}${why}; it is left as it is`
}

/** Headings of the reasons push holds an item back. */
const HEADINGS: Readonly<Record<PushHoldReason, string>> = {
  ...HOLD_HEADINGS,
  required: 'missing a field this push requires',
  'no-id': "changed, with the platform's id unknown",
  'no-update': 'changed, and the service cannot update them',
}
const HOLD_ORDER: readonly PushHoldReason[] = [...HOLD_REASONS, 'no-id', 'no-update']

/**
 * Judges the items before the run (push-gates.ts): with a platform list, records its decision and
 * the ids it gives in the journal (before anything it sends again leaves), then says on standard
 * error what is held back, what the list decided, and what the updates leave on the platform.
 */
async function judge(
  out: Output,
  context: {
    input: PushInput
    journal: Journal
    required: readonly RequirableField[]
    /** The profile's choice: a wrong GTIN check digit holds a SKU back. */
    holdBadCheckDigits: boolean
    baseUrl: string
    platform: PlatformList | undefined
    noUpdates: boolean
    /** A dry run: what it lists in part, its --json lists whole (--report is not written). */
    dryRun: boolean
  },
): Promise<{ judgement: PushJudgement; platformList?: PlatformListJson }> {
  const { input, journal, required, holdBadCheckDigits, baseUrl, platform, noUpdates, dryRun } = context
  const more = dryRun ? '(--json lists them all)' : undefined
  const judgement = judgePush({
    input,
    journal,
    required,
    holdBadCheckDigits,
    address: baseUrl,
    noUpdates,
    ...(platform ? { platform } : {}),
  })
  let platformList: PlatformListJson | undefined
  if (platform) {
    const { created, resend, keptBack, unmatched, ids } = judgement
    if (created.length + resend.length > 0) {
      await journal.decide({
        at: systemClock.now(),
        source: platform.source,
        message: markedMessage(platform),
        created,
        resend,
      })
    }
    await journal.setIds(platform.source, ids)
    platformList = {
      file: platform.source,
      markedCreated: created.length,
      sentAgain: resend.length,
      keptBack: keptBack.size,
      unmatched: unmatched.length,
      idsSet: ids.size,
    }
    const idWords = platform.ids ? `, ${counted(ids.size, 'platform id')} recorded` : ''
    out.write(
      `The platform's list ${platform.source} (${counted(platform.barcodes.size, 'barcode')}): ${created.length} marked created, ${resend.length} sent again, ${counted(unmatched.length, 'barcode')} on the list matched no unknown or failed SKU${idWords}.\n`,
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
  const { held, resent, kept, plans } = judgement
  if (held.size > 0) {
    const counts = HOLD_ORDER.flatMap((reason) => {
      const count = [...held.values()].filter((hold) => hold.reason === reason).length
      return count > 0 ? [`${count} ${HEADINGS[reason]}`] : []
    })
    const requires =
      required.length === 0
        ? 'only a product name and a barcode are required'
        : `required besides a product name and a barcode: ${required.map(gateFieldTitle).join(', ')}`
    listOnStderr(
      out,
      `${held.size} of ${counted(input.items.total, input.kind.noun)} are held back and not sent (${requires}): ${counts.join('; ')}.`,
      heldLines(input, held),
      more,
    )
  }
  if (resent.size > 0) {
    out.write(
      `${counted(resent.size, 'update')} whose outcome an earlier push left unknown or failed ${resent.size === 1 ? 'is' : 'are'} sent again, whole: an update is idempotent (sent twice, it leaves the SKU as once).\n`,
    )
  }
  if (kept.size > 0) {
    listOnStderr(
      out,
      `${counted(kept.size, input.kind.noun)} ${kept.size === 1 ? 'leaves' : 'leave'} fields empty that the platform keeps (an update changes the fields it sends and cannot remove one):`,
      [...kept].map(([index, paths]) => `[${index}] ${input.labelOf(index)}: ${paths.join(', ')}`),
    )
  }
  const notUpdated = plans.filter((plan) => plan === 'not-updated').length
  if (notUpdated > 0) {
    out.write(
      `${counted(notUpdated, input.kind.noun)} changed since sent there ${notUpdated === 1 ? 'is' : 'are'} not updated (--no-updates).\n`,
    )
  }
  return platformList ? { judgement, platformList } : { judgement }
}

/** One line an item held back: where it is, how it is named, and why. */
function heldLines(input: PushInput, holds: ReadonlyMap<number, Pick<Hold, 'message'>>): string[] {
  return [...holds]
    .sort(([a], [b]) => a - b)
    .map(([index, hold]) => {
      const place = input.rowOf(index) === undefined ? '' : `${input.placeOf(index)}: `
      return `[${index}] ${input.labelOf(index)}: ${place}${hold.message}`
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
