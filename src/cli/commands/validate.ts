import { parseCommandArgs } from '../args.ts'
import { checkInput, hasErrors } from '../check-input.ts'
import { CliError, EXIT_INVALID, EXIT_OK, type CliIo } from '../io.ts'
import { reportWriter } from '../report-writer.ts'
import { SHEET_ARGS, sheetOptions, showMapping } from '../sheet-options.ts'
import { VALIDATE_USAGE } from '../usage.ts'

/**
 * `catalog-desk validate FILE [--json] [--mapping FILE] [--decimal-comma] [--show-mapping]`: checks a JSON file of SKUs or an app request, or a CSV or
 * XLSX sheet of SKUs, against the contract.
 */
export async function validateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('validate', args, {
    json: { type: 'boolean' },
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
  const report = reportWriter(values.json === true)
  try {
    const checked = await checkInput(file, io.cwd, options, report.add)
    if (values.json) report.write(io.stdout, checked, options.showMapping ? checked.mapping : undefined)
    else {
      io.stdout.write(showMapping(checked.mapping, options))
      report.write(io.stdout, checked)
    }
    return hasErrors(checked) ? EXIT_INVALID : EXIT_OK
  } finally {
    report.close()
  }
}
