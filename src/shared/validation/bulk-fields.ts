// In shared rather than the renderer's db/: it needs only the catalogue and the form's rules, no Dexie.
import type { FieldNode } from '../schema/catalogue.ts'
import type { FieldKind } from '../schema/field.ts'
import { parsePath, setAt } from '../json-path.ts'
import { skuCatalogue, validateSku } from './validate.ts'

/** Kinds of value one input can hold; lists, slots and free JSON are edited draft by draft. */
const SETTABLE_KINDS = new Set<FieldKind>(['text', 'url', 'color', 'number', 'integer', 'boolean'])

/** A field that a bulk action may set on many drafts at once, described for its input. */
export interface BulkField {
  /** Dotted path in the payload (`arEffect.envSettings.intensity`). */
  path: string
  title: string
  /** The sections it sits in, as people name them ("AR effect › Environment"); "Product" at the top. */
  group: string
  kind: FieldKind
  examples: readonly (string | number)[]
  description: string | undefined
  allowEmpty: boolean
}

function collect(node: FieldNode, trail: string[], out: BulkField[]) {
  for (const child of node.children) {
    if (child.children.length > 0) {
      collect(child, [...trail, child.meta.title], out)
    } else if (!child.item && SETTABLE_KINDS.has(child.meta.kind)) {
      out.push({
        path: child.path,
        title: child.meta.title,
        group: trail.length ? trail.join(' › ') : 'Product',
        kind: child.meta.kind,
        examples: child.meta.examples ?? [],
        description: child.meta.description,
        allowEmpty: child.meta.allowEmpty ?? false,
      })
    }
  }
}

/** Every value field of the contract outside lists, in contract order: what "Set field…" offers. */
export const BULK_FIELDS: readonly BulkField[] = (() => {
  const out: BulkField[] = []
  collect(skuCatalogue, [], out)
  return out
})()

const byPath = new Map(BULK_FIELDS.map((field) => [field.path, field]))

export function bulkField(path: string): BulkField | undefined {
  return byPath.get(path)
}

/**
 * Why `value` cannot be set at `path` on many drafts, or undefined when it can. The same rules
 * as the form: the value is checked by the schema in place, with the form's messages. `undefined`
 * removes the field, which is always allowed.
 */
export function bulkValueProblem(path: string, value: unknown): string | undefined {
  const field = byPath.get(path)
  if (!field) return `"${path}" is not a field that can be set on many drafts at once.`
  if (value === undefined) return undefined
  // The form turns an emptied field into an absent one; here that is the explicit "Remove".
  if (value === '' && !field.allowEmpty)
    return `Type a value for ${field.title}, or choose to remove the field.`
  const probe: Record<string, unknown> = {}
  setAt(probe, parsePath(path), value)
  return validateSku(probe).errors.find((problem) => problem.path === path)?.message
}
