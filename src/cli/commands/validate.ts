import { parseCommandArgs } from '../args.ts'
import { checkInputFile } from '../check-input.ts'
import { CliError, EXIT_INVALID, EXIT_OK, type CliIo } from '../io.ts'
import { VALIDATE_USAGE } from '../usage.ts'

/**
 * `catalog-desk validate FILE [--json]`: checks a JSON file of SKUs or an app request, or a CSV or
 * XLSX sheet of SKUs, against the contract.
 */
export async function validateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('validate', args, {
    json: { type: 'boolean' },
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

  const checked = await checkInputFile(file, io.cwd)
  io.stdout.write(values.json ? JSON.stringify(checked.summary, null, 2) + '\n' : checked.text)
  return checked.failed ? EXIT_INVALID : EXIT_OK
}
