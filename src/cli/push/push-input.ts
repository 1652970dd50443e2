import { createHash } from 'node:crypto'
import { checkInputFile, type CheckedInput } from '../check-input.ts'
import { CliError } from '../io.ts'
import type { SheetOptions } from '../sheet-options.ts'
import { APP_KIND, SKU_KIND, type DraftKind } from '#shared/sync/kinds.ts'
import type { JournalItems } from './journal-outbox.ts'

/**
 * What `push` sends, read by the same pipeline as `validate`: every item keeps its index in the
 * file, invalid ones are not sent (they are reported with their first error), and a fingerprint
 * of the content ties a journal to this input. Valid SKUs may still be held back by the gates
 * (push-gates.ts); that depends on the options and the journal, so it is judged once the journal
 * is open, never here: the items and the fingerprint stay those of the file alone.
 */
export interface PushInput {
  kind: DraftKind
  /** What `validate` would print, for the invalid items. */
  checked: CheckedInput
  items: JournalItems
  /** The items not sent because they do not meet the contract. */
  invalid: { index: number; label: string; message: string }[]
  fingerprint: string
  labelOf(index: number): string
  /** The item as read, valid or not (undefined past the end). */
  payloadOf(index: number): unknown
  /** For a sheet: the data row the item came from, as validate counts them (from 1). */
  rowOf(index: number): number | undefined
  /**
   * Where a person finds the item in FILE: "row N" of a sheet (as validate counts them), "item N"
   * of a JSON list (its position from 0, the [N] of validate and of push's lists).
   */
  placeOf(index: number): string
}

export async function readPushInput(
  file: string,
  cwd: string,
  options: SheetOptions = {},
): Promise<PushInput> {
  const checked = await checkInputFile(file, cwd, options)
  if (checked.documentErrors > 0) {
    throw new CliError(`${file} is not something push can send:\n${checked.text.trimEnd()}`)
  }
  if (checked.entries.length === 0) throw new CliError(`${file} holds nothing to send.`)
  const kind = checked.kind === 'app-request' ? APP_KIND : SKU_KIND
  const entries = checked.entries
  const labels = entries.map((entry) => kind.label(entry.payload, `#${entry.index}`))
  const hash = createHash('sha256').update(kind.kind)
  for (const entry of entries) hash.update('\n').update(JSON.stringify(entry.payload) ?? 'null')
  return {
    kind,
    checked,
    items: {
      total: entries.length,
      at(index) {
        const entry = entries[index]
        if (!entry || entry.error !== undefined) return undefined
        return { payload: entry.payload, label: labels[index]! }
      },
    },
    invalid: entries
      .filter((entry) => entry.error !== undefined)
      .map((entry) => ({ index: entry.index, label: labels[entry.index]!, message: entry.error! })),
    fingerprint: hash.digest('hex'),
    labelOf: (index) => labels[index] ?? `#${index}`,
    payloadOf: (index) => entries[index]?.payload,
    rowOf: (index) => entries[index]?.row,
    placeOf(index) {
      const row = entries[index]?.row
      return row === undefined ? `item ${index}` : `row ${row}`
    },
  }
}
