import { validateDocument } from '../../shared/validation/document.ts'
import { parseCommandArgs } from '../args.ts'
import { CliError, EXIT_INVALID, EXIT_OK, type CliIo } from '../io.ts'
import { readJsonFile } from '../read-json.ts'
import { VALIDATE_USAGE } from '../usage.ts'
import { formatSummary, summarise } from '../validation-report.ts'

/** `catalog-desk validate FILE [--json]`: checks a JSON file of SKUs or an app request against the contract. */
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
  if (file === undefined) throw new CliError('Missing FILE: name the JSON file to check.', 'validate')
  if (extra.length > 0)
    throw new CliError(`validate checks one FILE; also given: ${extra.join(' ')}`, 'validate')

  const summary = summarise(validateDocument(await readJsonFile(file, io.cwd)))
  io.stdout.write(values.json ? JSON.stringify(summary, null, 2) + '\n' : formatSummary(summary))
  return summary.errors.length > 0 ? EXIT_INVALID : EXIT_OK
}
