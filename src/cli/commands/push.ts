import { resolve } from 'node:path'
import { thousands } from '#shared/sheet/places.ts'
import { CliError, EXIT_INVALID, EXIT_OK, type CliIo, type Output } from '../io.ts'
import { PUSH_USAGE } from '../usage.ts'
import type { Journal } from '../push/journal-outbox.ts'
import { defaultJournalPath } from '../push/journal-path.ts'
import { readPlatformList } from '../push/platform-list.ts'
import { appDataDir } from '../push/push-credentials.ts'
import { dryRunJson, dryRunText, standingWords } from '../push/push-dry-run.ts'
import { readPushInput, type PushInput } from '../push/push-input.ts'
import { openPushJournal } from '../push/push-journal.ts'
import {
  judgeAgainstJournal,
  markedMessage,
  PUSH_HOLD_HEADINGS,
  type PushVerdict,
} from '../push/push-judgement.ts'
import { readPushOptions, type PushOptions } from '../push/push-options.ts'
import { checkOutputs, writeOutputs, type PushOutputs } from '../push/push-outputs.ts'
import { appDroppedFields, pushJson, pushText, reportEntries } from '../push/push-report.ts'
import { sendPush, type PushRuns } from '../push/push-runs.ts'
import { listOnStderr } from '../push/push-stderr.ts'
import { sheetOptions, showMapping, type SheetOptions } from '../sheet-options.ts'

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
 *
 * This is the push's stages in order, each in its own module under push/: the options
 * (push-options.ts), the input, the journal (push-journal.ts), the judgement (push-judgement.ts),
 * the runs (push-runs.ts), then the report and the files it writes (push-report.ts,
 * push-outputs.ts).
 */
export async function pushCommand(args: string[], io: CliIo): Promise<number> {
  const options = await readPushOptions(args, io)
  if (options === 'help') {
    io.stdout.write(PUSH_USAGE)
    return EXIT_OK
  }
  const { file, values, baseUrl, dryRun } = options
  const sheet = await sheetOptions(values, io.cwd)
  const input = await readPushInput(file, io.cwd, sheet)
  try {
    sayInput(io.stderr, input, sheet, options)
    // Read whole before the journal is touched: a list that cannot be read changes nothing.
    const platformHas = values['platform-has']
    const platform = platformHas === undefined ? undefined : await readPlatformList(platformHas, io.cwd)
    const dataDir = appDataDir(options.env)
    const journalPath =
      values.journal === undefined
        ? defaultJournalPath(dataDir, baseUrl, input.kind.kind)
        : resolve(io.cwd, values.journal)
    const outputs = outputsOf(options, io.cwd)
    await checkOutputs(outputs, {
      cwd: io.cwd,
      input: file,
      journal: journalPath,
      ...(platformHas === undefined ? {} : { platformList: platformHas }),
    })
    const journal = await openPushJournal(io.stderr, {
      input,
      file,
      baseUrl,
      path: journalPath,
      dataDir,
      named: values.journal !== undefined,
      cwd: io.cwd,
      dryRun,
    })
    const verdict = await judgeAgainstJournal(io.stderr, {
      input,
      journal,
      required: options.required,
      holdBadCheckDigits: options.holdBadCheckDigits,
      baseUrl,
      platform,
      noUpdates: values['no-updates'] === true,
      dryRun,
    })
    if (dryRun) return await printDryRun(io.stdout, options, { input, journal, verdict })
    const sent = await sendPush({
      ...options,
      input,
      journal,
      judgement: verdict.judgement,
      err: io.stderr,
      ...(io.signal ? { signal: io.signal } : {}),
    })
    const marked = platform === undefined ? undefined : markedMessage(platform)
    return await report(io, options, outputs, { input, journal, verdict, sent, marked })
  } finally {
    input.close()
  }
}

/**
 * What is said of the input before anything else: the mapping, the columns not read, what only
 * SKUs take, and the items that do not meet the contract (not sent). All on standard error:
 * standard output is the report (or --json).
 */
function sayInput(err: Output, input: PushInput, sheet: SheetOptions, { file, values }: PushOptions): void {
  // With --json the mapping is a member of the JSON (`withMapping`), as validate gives it.
  if (!values.json) err.write(showMapping(input.file.mapping, sheet))
  // A column whose header looks like a typo of a field is not read: said before anything is sent.
  for (const note of input.file.suggestions ?? []) err.write(`note: ${note}\n`)
  // The gates and the reconciliation go by barcodes (a kind's `gated`); an app request is sent as before.
  if (!input.kind.gated) {
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
      err,
      `${input.invalid.length} of ${input.items.total} ${input.kind.noun}s do not meet the contract and are not sent:`,
      input.invalid.map((item) => `[${item.index}] ${item.label}: ${item.message}`),
      `("catalog-desk validate ${file}" lists every problem)`,
    )
  }
  // A warning does not stop a send (a shop's own status, a picture missing): said, not only by validate.
  const { noun } = input.kind
  const counted = (fields: Map<string, number>) =>
    [...fields].map(([field, count]) => `${field} (${thousands(count)})`).join(', ')
  if (input.warned.values.size > 0) {
    err.write(`note: valid ${noun}s with a warning on a value: ${counted(input.warned.values)}\n`)
  }
  if (input.warned.missing.size > 0) {
    err.write(`note: valid ${noun}s without fields the contract lists: ${counted(input.warned.missing)}\n`)
  }
  if (input.warned.values.size + input.warned.missing.size > 0) {
    err.write(`  (a warning holds nothing back; "catalog-desk validate ${file}" says each with its lines)\n`)
  }
}

/** `--report` and `--unresolved`, resolved against the working folder. */
function outputsOf({ values, unresolved }: PushOptions, cwd: string): PushOutputs {
  return {
    ...(values.report === undefined
      ? {}
      : { report: { path: resolve(cwd, values.report), given: values.report } }),
    ...(unresolved === undefined ? {} : { unresolved: { ...unresolved, given: values.unresolved! } }),
  }
}

/** A dry run's answer: what the push would do; exit 0 when every item would be sent or is unchanged. */
async function printDryRun(
  out: Output,
  { values }: PushOptions,
  { input, journal, verdict }: { input: PushInput; journal: Journal; verdict: PushVerdict },
): Promise<number> {
  try {
    const standing = (index: number) => standingWords(journal.record(input.keyOf(index))?.last)
    const { judgement, platformList } = verdict
    const { json, groups } = dryRunJson(input, judgement, PUSH_HOLD_HEADINGS, standing, platformList)
    out.write(
      values.json
        ? JSON.stringify(withMapping(json, input, values), null, 2) + '\n'
        : dryRunText(input, json, groups),
    )
    return json.sendable === json.total ? EXIT_OK : EXIT_INVALID
  } finally {
    await journal.close()
  }
}

/** The push's end: the files asked for, then the summary (or --json); exit 0 when all is synced and written. */
async function report(
  io: CliIo,
  { values }: PushOptions,
  outputs: PushOutputs,
  done: { input: PushInput; journal: Journal; verdict: PushVerdict; sent: PushRuns; marked?: string },
): Promise<number> {
  const { input, journal, verdict, sent } = done
  const entries = reportEntries({
    input,
    judgement: verdict.judgement,
    journal,
    runs: sent.runs,
    markedMessage: done.marked,
  })
  // Automation reads these files: one that was asked for and not written is not a success.
  const written = await writeOutputs(io.stderr, outputs, { input, journal, entries })
  // The app's id and what the service did not keep are of the app as it stands there: said only
  // when that is this input's (created now, or unchanged since), not for one held back or invalid.
  const standsAsSent = entries[0]?.state === 'synced'
  const dropped = standsAsSent ? appDroppedFields(input, journal) : []
  const app = input.kind.keepsAnswer && standsAsSent ? journal.record(input.keyOf(0)) : undefined
  const json = pushJson(
    input,
    entries,
    sent.finalStatus,
    app?.stands === undefined ? undefined : { ...(app.id === undefined ? {} : { id: app.id }), dropped },
    verdict.platformList,
  )
  io.stdout.write(
    values.json
      ? JSON.stringify(withMapping(json, input, values), null, 2) + '\n'
      : pushText(input, json, entries, dropped),
  )
  // Changes left out by --no-updates were asked for: they do not fail the push.
  return json.synced + json.notUpdated === json.total && written ? EXIT_OK : EXIT_INVALID
}

/** `--json` with `--show-mapping`: the mapping used as its `mapping` member, as validate writes it. */
function withMapping<J extends object>(json: J, input: PushInput, values: PushOptions['values']): J {
  const mapping = input.file.mapping
  return values['show-mapping'] && mapping ? { ...json, mapping } : json
}
