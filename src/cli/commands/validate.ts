import { parseCommandArgs } from '../args.ts'
import { checkInput, isReadyToSend } from '../check-input.ts'
import { CliError, EXIT_INVALID, EXIT_OK, type CliIo } from '../io.ts'
import { heldByPush, PUSH_VERDICT_HEADINGS } from '../push/push-verdict.ts'
import { RareValueReport } from '../rare-value-report.ts'
import { reportWriter } from '../report-writer.ts'
import { SHEET_ARGS, sheetOptions, showMapping } from '../sheet-options.ts'
import { VALIDATE_USAGE } from '../usage.ts'
import { VERDICT_ARGS, verdictOptions } from '../verdict-options.ts'
import { VerdictReport } from '../verdict-report.ts'

/**
 * `catalog-desk validate FILE [--json] [--all] [--require FIELDS | --profile NAME] [--journal PATH]
 * [--mapping FILE] [--decimal-comma] [--show-mapping]`: checks a JSON file of SKUs or an app
 * request, or a CSV or XLSX sheet of SKUs, against the contract, then gives the one verdict of its
 * SKUs (verdict-report.ts): how many are valid, how many a push would send and how many it would
 * hold back, and why, with the rows read as the same SKU, the barcodes several SKUs share and the
 * shop ids several rows carry; then the values that look like typos of a common one
 * (rare-value-report.ts), which are questions and never change the exit status. Exit 0 only when
 * the file holds SKUs and every one would be sent (`isReadyToSend`).
 */
export async function validateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('validate', args, {
    json: { type: 'boolean' },
    all: { type: 'boolean' },
    ...VERDICT_ARGS,
    ...SHEET_ARGS,
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(VALIDATE_USAGE)
    return EXIT_OK
  }
  const [file, ...extra] = positionals
  if (file === undefined)
    throw new CliError('Missing FILE: name the JSON, CSV or XLSX file to check.', 'validate')
  if (extra.length > 0)
    throw new CliError(`validate checks one FILE; also given: ${extra.join(' ')}`, 'validate')

  const options = await sheetOptions(values, io.cwd)
  const judged = await verdictOptions('validate', values, io)
  const verdict = new VerdictReport(judged)
  const all = values.all === true
  const report = reportWriter(values.json === true, { all })
  const rare = new RareValueReport()
  try {
    const checked = await checkInput(file, io.cwd, options, (item, kind) => {
      report.add(item, kind)
      verdict.add(item, kind)
      rare.add(item, kind)
    })
    // Against a destination's journal, held back is what a push there holds back.
    const journal = judged.journals?.[checked.kind === 'app-request' ? 'apps' : 'skus']
    if (journal)
      verdict.judgedByPush(
        await heldByPush(file, io.cwd, options, journal, { ...judged, command: 'validate' }),
        PUSH_VERDICT_HEADINGS,
      )
    verdict.finish(checked)
    await verdict.sayWhatDiffers((onItem) => checkInput(file, io.cwd, options, onItem))
    const json = verdict.json(checked)
    if (values.json) {
      report.write(io.stdout, checked, {
        ...(options.showMapping && checked.mapping ? { mapping: checked.mapping } : {}),
        ...(json ? { verdict: { ...json, rareValues: rare.json(checked) } } : {}),
      })
    } else {
      io.stdout.write(showMapping(checked.mapping, options))
      report.write(io.stdout, checked)
      io.stdout.write(verdict.text(checked, all))
      io.stdout.write(rare.text(checked))
    }
    const heldBack = verdict.finish()?.heldBack ?? 0
    return isReadyToSend(checked, heldBack) ? EXIT_OK : EXIT_INVALID
  } finally {
    report.close()
  }
}
