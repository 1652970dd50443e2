import { extname, resolve } from 'node:path'
import type { Sku } from '#shared/schema/sku.ts'
import { counted } from '#shared/counted.ts'
import { thousands } from '#shared/sheet/places.ts'
import { parseCommandArgs } from '../args.ts'
import { checkInput, isReadyToSend } from '../check-input.ts'
import { CliError, EXIT_INVALID, EXIT_OK, type CliIo } from '../io.ts'
import { OutputFile } from '../output-file.ts'
import { reportWriter } from '../report-writer.ts'
import { skuOutput } from '../sku-output.ts'
import { SHEET_ARGS, sheetOptions, showMapping } from '../sheet-options.ts'
import { CONVERT_USAGE } from '../usage.ts'
import { heldByPush, PUSH_VERDICT_HEADINGS } from '../push/push-verdict.ts'
import { VERDICT_ARGS, verdictOptions } from '../verdict-options.ts'
import { VerdictReport } from '../verdict-report.ts'

const OUTPUTS: Record<string, 'json' | 'csv' | 'xlsx'> = { '.json': 'json', '.csv': 'csv', '.xlsx': 'xlsx' }

/**
 * `catalog-desk convert IN OUT [--force]`: reads SKUs from JSON, CSV or XLSX through the same
 * pipeline as `validate` and writes the valid ones as a bulk upload request (.json), a CSV or an
 * XLSX, by OUT's extension, as they are checked (sku-output.ts). Invalid SKUs are reported and left
 * out, never written half-right; OUT appears only once whole (output-file.ts). Every valid SKU is
 * written, whatever a push would hold back (a sheet is converted whole, its shared barcodes to be
 * settled in it); the verdict after the report says what it would hold back (verdict-report.ts),
 * and the exit status is `validate`'s with the same options: a script that posts the written
 * request stops where a push would not send all of it (a tryout's bulk.json held a barcode twice).
 */
export async function convertCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('convert', args, {
    force: { type: 'boolean' },
    all: { type: 'boolean' },
    ...VERDICT_ARGS,
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
  const format = OUTPUTS[extname(output).toLowerCase()]
  if (!format) throw new CliError(`OUT must end in .json, .csv or .xlsx, not "${output}".`, 'convert')
  if (resolve(io.cwd, input) === resolve(io.cwd, output))
    throw new CliError('IN and OUT are the same file; write to another file.', 'convert')

  const options = await sheetOptions(values, io.cwd)
  const judged = await verdictOptions('convert', values, io)
  const verdict = new VerdictReport(judged)
  const path = resolve(io.cwd, output)
  if (!values.force) await OutputFile.refuseExisting(path, output)
  const all = values.all === true
  const report = reportWriter(false, { all })
  const file = new OutputFile(path, output)
  const skus = skuOutput(format, file, output)
  try {
    let written = 0
    const checked = await checkInput(input, io.cwd, options, (item, kind) => {
      if (kind === 'app-request')
        throw new CliError(`${input} holds an app creation request; convert works on SKUs.`)
      report.add(item, kind)
      verdict.add(item, kind)
      if (item.errors.length > 0) return
      skus.add(item.payload as Sku)
      written++
    })
    await skus.end()
    // Against a destination's journal, held back is what a push there holds back.
    if (judged.journals?.skus)
      verdict.judgedByPush(
        await heldByPush(input, io.cwd, options, judged.journals.skus, { ...judged, command: 'convert' }),
        PUSH_VERDICT_HEADINGS,
      )
    verdict.finish(checked)
    await verdict.sayWhatDiffers((onItem) => checkInput(input, io.cwd, options, onItem))
    file.commit(values.force === true)
    io.stdout.write(showMapping(checked.mapping, options))
    report.write(io.stdout, checked)
    io.stdout.write(verdict.text(checked, all))
    const heldBack = verdict.finish()?.heldBack ?? 0
    io.stdout.write(`${writtenLine(output, format, written, checked.invalid, heldBack)}\n`)
    return isReadyToSend(checked, heldBack) ? EXIT_OK : EXIT_INVALID
  } finally {
    file.discard()
    skus.close()
    report.close()
  }
}

/** "wrote bulk.json: 24 SKUs, 4 of them held back (above): posted as it is, the request sends them anyway". */
function writtenLine(
  output: string,
  format: 'json' | 'csv' | 'xlsx',
  written: number,
  invalid: number,
  heldBack: number,
): string {
  const leftOut = invalid > 0 ? ` (${thousands(invalid)} invalid left out)` : ''
  const held =
    heldBack === 0
      ? ''
      : `, ${thousands(heldBack)} of them held back (above)${format === 'json' ? ': posted as it is, the request sends them anyway' : ''}`
  return `wrote ${output}: ${counted(written, 'SKU')}${leftOut}${held}`
}
