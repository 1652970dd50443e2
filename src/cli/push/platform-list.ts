import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { BarcodeListError, readBarcodeList } from '#shared/sheet/barcode-list.ts'
import { messageOf } from '#shared/error-message.ts'
import { CliError } from '../io.ts'
import { READ_ERRORS } from '../input-file.ts'
import type { PlatformList } from './push-gates.ts'

/**
 * `push --platform-has LIST`: the barcodes a person found on the platform (a CSV, XLSX or text
 * file, read as the app reads such a list: one column, or the column headed barcode; barcodes are
 * text, so leading zeros stay), and with a column of ids (`_id`, `id`, `skuId`, …) the platform's
 * id of each: what makes a SKU created there updatable when the service's answer gave no id. A
 * barcode listed with two ids, or an id that is not one, refuses the list by its row or barcode.
 * Read whole before the journal is opened: a list that cannot be read stops the command with
 * nothing changed, since a list read in part would send the rest again.
 */
export async function readPlatformList(file: string, cwd: string): Promise<PlatformList> {
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(await readFile(resolve(cwd, file)))
  } catch (error) {
    const code = (error as { code?: string }).code ?? ''
    throw new CliError(
      `Cannot read the platform's list ${file}: ${READ_ERRORS[code] ?? messageOf(error)}. Nothing was changed.`,
    )
  }
  try {
    const list = await readBarcodeList(bytes)
    const platform: PlatformList = { source: file, barcodes: new Set(list.barcodes) }
    if (list.ids) platform.ids = list.ids.byBarcode
    return platform
  } catch (error) {
    const why = error instanceof BarcodeListError ? error.message : `it cannot be read (${messageOf(error)}).`
    throw new CliError(`The platform's list ${file} is not a list of barcodes: ${why} Nothing was changed.`)
  }
}
