import { createHash } from 'node:crypto'
import { checkInputFile, type CheckedInput } from '../check-input.ts'
import { CliError } from '../io.ts'
import type { SyncKind } from '#shared/sync/ports.ts'
import type { JournalItems } from './journal-outbox.ts'

/**
 * What `push` sends, read by the same pipeline as `validate`: every item keeps its index in the
 * file, invalid ones are not sent (they are reported with their first error), and a fingerprint
 * of the content ties a journal to this input.
 */
export interface PushInput {
  kind: SyncKind
  /** What `validate` would print, for the invalid items. */
  checked: CheckedInput
  items: JournalItems
  /** The items not sent because they do not meet the contract. */
  invalid: { index: number; label: string; message: string }[]
  fingerprint: string
  labelOf(index: number): string
}

function labelFor(payload: unknown, kind: SyncKind, index: number): string {
  const record = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>
  const value = kind === 'apps' ? record.name : record.barcode
  return typeof value === 'string' && value !== '' ? value.slice(0, 120) : `#${index}`
}

export async function readPushInput(file: string, cwd: string): Promise<PushInput> {
  const checked = await checkInputFile(file, cwd)
  if (checked.documentErrors > 0) {
    throw new CliError(`${file} is not something push can send:\n${checked.text.trimEnd()}`)
  }
  if (checked.entries.length === 0) throw new CliError(`${file} holds nothing to send.`)
  const kind: SyncKind = checked.kind === 'app-request' ? 'apps' : 'skus'
  const entries = checked.entries
  const labels = entries.map((entry) => labelFor(entry.payload, kind, entry.index))
  const hash = createHash('sha256').update(kind)
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
  }
}
