import type { z } from './zod.ts'
import { fieldRegistry, type FieldMeta } from './field.ts'

/**
 * The field catalogue: the schema's fields as a tree of described nodes, derived from the schema
 * itself so a field is declared in one place. Forms render it, import maps columns to it and
 * validation takes its words for messages.
 */
export interface FieldNode {
  /** Dotted path from the document root; list and slot items use `*` (`arEffect.effectAssets3D.*.url`). */
  path: string
  key: string
  meta: FieldMeta
  /** Fields of a section or of a list item, in contract order. */
  children: FieldNode[]
  /** For lists and slots: the node of one item (itself a section, or a leaf for lists of text). */
  item?: FieldNode
}

type AnySchema = z.core.$ZodType

function unwrapOptional(schema: AnySchema): AnySchema {
  const def = schema._zod.def
  return def.type === 'optional' ? (def as z.core.$ZodOptionalDef).innerType : schema
}

function node(schema: AnySchema, path: string, key: string, fallback: FieldMeta): FieldNode {
  const inner = unwrapOptional(schema)
  const meta = fieldRegistry.get(inner) ?? fallback
  const result: FieldNode = { path, key, meta, children: [] }
  const def = inner._zod.def
  if (def.type === 'object') {
    const shape = (def as z.core.$ZodObjectDef).shape
    result.children = Object.entries(shape).map(([childKey, child]) =>
      node(child, path ? `${path}.${childKey}` : childKey, childKey, fallbackMeta(childKey)),
    )
  } else if (def.type === 'array' && (meta.kind === 'list' || meta.kind === 'slots')) {
    let element = (def as z.core.$ZodArrayDef).element
    // A slot is `null | item`: describe the item.
    if (meta.kind === 'slots' && element._zod.def.type === 'union') {
      const options = (element._zod.def as z.core.$ZodUnionDef).options
      element = options.find((option) => option._zod.def.type !== 'null') ?? element
    }
    result.item = node(element, `${path}.*`, '*', {
      title: `${meta.title} item`,
      kind: 'text',
      expected: true,
    })
  }
  return result
}

function fallbackMeta(key: string): FieldMeta {
  return { title: key, kind: 'json', expected: false }
}

export function buildCatalogue(schema: AnySchema, title: string): FieldNode {
  return node(schema, '', '', { title, kind: 'section', expected: true })
}

/** The node describing `path` (numeric segments are list positions), or the nearest ancestor. */
export function findField(
  root: FieldNode,
  path: readonly PropertyKey[],
): { node: FieldNode; exact: boolean } {
  let current = root
  for (const segment of path) {
    const next =
      typeof segment === 'number' || /^\d+$/.test(String(segment))
        ? current.item
        : current.children.find((child) => child.key === segment)
    if (!next) return { node: current, exact: false }
    current = next
  }
  return { node: current, exact: true }
}

/** Every leaf (a field that holds a value rather than other fields), depth first. */
export function leaves(root: FieldNode): FieldNode[] {
  const out: FieldNode[] = []
  const visit = (n: FieldNode) => {
    if (n.children.length === 0 && !n.item) out.push(n)
    n.children.forEach(visit)
    if (n.item) visit(n.item)
  }
  visit(root)
  return out
}
