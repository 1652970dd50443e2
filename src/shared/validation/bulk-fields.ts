// In shared rather than the renderer's db/: it needs only the catalogue and the form's rules, no Dexie.
import type { FieldKind } from '../schema/field.ts'
import { parsePath, setAt } from '../json-path.ts'
import { columnTarget, describeColumn, fieldSection, skuColumns } from '../sheet/columns.ts'
import { isRecord } from '../is-record.ts'
import { validateSku } from './validate.ts'
import { lazily } from '../lazily.ts'

/**
 * How many 3D asset positions a bulk edit offers: the first, which is the model of nearly every
 * SKU (a sheet's "Asset ID" and "Model address"); later ones are edited draft by draft.
 */
const BULK_ASSETS_3D = 1

/** A field that a bulk action may set on many drafts at once, described for its input. */
export interface BulkField {
  /** Dotted path in the payload (`arEffect.envSettings.intensity`, `arEffect.effectAssets3D.0.url`). */
  path: string
  /** As a sheet's column is named: "Intensity", "Model address of 3D asset 1", "2D asset 3". */
  title: string
  /** The sections it sits in, as people name them ("AR effect › Environment"); "Product" at the top. */
  group: string
  /** The field's kind, or `slot`: one of the seven 2D slots, empty (null) or a JSON object. */
  kind: FieldKind | 'slot'
  examples: readonly (string | number)[]
  description: string | undefined
  allowEmpty: boolean
}

/**
 * Every field a sheet can hold, in the sheet's order (the import and export's own column list,
 * `skuColumns`), with the first 3D asset's id and address and each 2D slot: what "Set field…"
 * offers. Built on first use, as the catalogue it reads (issue #37).
 */
export const bulkFields = lazily((): readonly BulkField[] =>
  skuColumns({ assets3D: BULK_ASSETS_3D }).flatMap((path): BulkField[] => {
    const target = columnTarget(path)
    const common = { path, title: describeColumn(path), group: fieldSection(path) }
    if (target.kind === 'slot')
      return [{ ...common, kind: 'slot', examples: [], description: undefined, allowEmpty: false }]
    if (target.kind !== 'leaf') return []
    const { meta } = target.node
    return [
      {
        ...common,
        kind: meta.kind,
        examples: meta.examples ?? [],
        description: meta.description,
        allowEmpty: meta.allowEmpty ?? false,
      },
    ]
  }),
)

const byPath = lazily(() => new Map(bulkFields().map((field) => [field.path, field])))

export function bulkField(path: string): BulkField | undefined {
  return byPath().get(path)
}

/** Whether a field holds text one can find and replace in (text and web addresses, ids included). */
export function holdsText(field: BulkField): boolean {
  return field.kind === 'text' || field.kind === 'url'
}

/**
 * Why `value` cannot be set at `path` on many drafts, or undefined when it can. The same rules
 * as the form: the value is checked by the schema in place, with the form's messages. `undefined`
 * removes the field, which is always allowed but for a 2D slot: the contract keeps seven, so a slot
 * is emptied (null), never taken out of the list.
 */
export function bulkValueProblem(path: string, value: unknown): string | undefined {
  const field = byPath().get(path)
  if (!field) return `"${path}" is not a field that can be set on many drafts at once.`
  if (field.kind === 'slot') {
    if (value === null || isRecord(value)) return undefined
    return `${field.title} must be empty or a JSON object such as {"url": "https://…"}.`
  }
  if (value === undefined) return undefined
  // The form turns an emptied field into an absent one; here that is the explicit "Remove".
  if (value === '' && !field.allowEmpty)
    return `Type a value for ${field.title}, or choose to remove the field.`
  const probe: Record<string, unknown> = {}
  setAt(probe, parsePath(path), value)
  return validateSku(probe).errors.find((problem) => problem.path === path)?.message
}
