import { writeFile } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { bulkRequestJson, skusToCsv, skusToXlsx } from '#shared/sheet/export.ts'
import { parseCommandArgs } from '../args.ts'
import { checkInputFile } from '../check-input.ts'
import { CliError, EXIT_INVALID, EXIT_OK, type CliIo } from '../io.ts'
import { SHEET_ARGS, sheetOptions, showMapping } from '../sheet-options.ts'
import { CONVERT_USAGE } from '../usage.ts'

const OUTPUTS = ['.json', '.csv', '.xlsx']

/**
 * `catalog-desk convert IN OUT [--force]`: reads SKUs from JSON, CSV or XLSX through the same
 * pipeline as `validate` and writes the valid ones as a bulk upload request (.json), a CSV or an
 * XLSX, by OUT's extension. Invalid SKUs are reported and left out, never written half-right.
 */
export async function convertCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('convert', args, {
    force: { type: 'boolean' },
    ...SHEET_ARGS,
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(CONVERT_USAGE)
    return EXIT_OK
  }
  const [input, output, ...extra] = positionals
  if (input === undefined || output === undefined)
    throw new CliError('Missing IN or OUT: name the file to read and the file to write.', 'convert')
  if (extra.length > 0)
    throw new CliError(`convert takes IN and OUT; also given: ${extra.join(' ')}`, 'convert')
  const format = extname(output).toLowerCase()
  if (!OUTPUTS.includes(format))
    throw new CliError(`OUT must end in .json, .csv or .xlsx, not "${output}".`, 'convert')
  if (resolve(io.cwd, input) === resolve(io.cwd, output))
    throw new CliError('IN and OUT are the same file; write to another file.', 'convert')

  const options = await sheetOptions(values, io.cwd)
  const checked = await checkInputFile(input, io.cwd, options)
  if (checked.kind === 'app-request')
    throw new CliError(`${input} holds an app creation request; convert works on SKUs.`)

  const skus = checked.valid
  let bytes: string | Uint8Array
  // Headed by contract paths: a sheet made here has no drafts behind it, and paths read back exactly.
  if (format === '.json') bytes = bulkRequestJson(skus)
  else if (format === '.csv') bytes = skusToCsv(skus, { headers: 'paths' })
  else bytes = await skusToXlsx(skus, { headers: 'paths' })
  try {
    // `wx` fails on an existing file, so a file created meanwhile is not overwritten either.
    await writeFile(resolve(io.cwd, output), bytes, { flag: values.force ? 'w' : 'wx' })
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'EEXIST') throw new CliError(`${output} exists; add --force to overwrite it.`, 'convert')
    throw new CliError(`Cannot write ${output}: ${(error as Error).message}`)
  }

  io.stdout.write(showMapping(checked.mapping, options) + checked.text)
  const leftOut = checked.summary.invalid
  const noun = skus.length === 1 ? 'SKU' : 'SKUs'
  io.stdout.write(
    `wrote ${output}: ${skus.length} ${noun}${leftOut > 0 ? ` (${leftOut} invalid left out)` : ''}\n`,
  )
  return checked.failed ? EXIT_INVALID : EXIT_OK
}
