import type { z } from '../schema/zod.ts'
import { findField, type FieldNode } from '../schema/catalogue.ts'
import type { FieldMeta } from '../schema/field.ts'
import { formatPath, type Problem } from './problem.ts'

/** Turns a schema issue into a sentence that names the field the way the catalogue does. */
export function describeIssue(issue: z.core.$ZodIssue, root: FieldNode): Problem {
  const { node, exact } = findField(root, issue.path)
  const input = 'input' in issue ? issue.input : undefined
  const meta = exact ? node.meta : undefined
  return {
    path: formatPath(issue.path),
    message: `${fieldName(root, issue.path)} ${requirement(issue, meta, slotParent(root, issue.path))}${got(input)}`,
  }
}

/** The field at `path` as a message names it: "Intensity", "Model address of 3D asset 2". */
export function fieldName(root: FieldNode, path: readonly PropertyKey[]): string {
  const { node, exact } = findField(root, path)
  const name = exact ? node.meta.title : `"${String(path.at(-1))}" in ${node.meta.title}`
  return `${name}${listPosition(root, path)}`
}

/** " of 3D asset 2" for a field inside a list item; positions are 1-based, as people count. */
function listPosition(root: FieldNode, path: readonly PropertyKey[]): string {
  const at = path.findLastIndex((segment) => typeof segment === 'number')
  if (at < 0) return ''
  const list = findField(root, path.slice(0, at)).node
  const itemTitle = list.item?.meta.title ?? 'item'
  const position = `${itemTitle} ${(path[at] as number) + 1}`
  // The item itself ("2D asset 2") or a field inside it ("Model address of 3D asset 1").
  return at === path.length - 1 ? ` ${(path[at] as number) + 1}` : ` of ${position}`
}

function slotParent(root: FieldNode, path: readonly PropertyKey[]): boolean {
  if (path.length === 0 || typeof path.at(-1) !== 'number') return false
  return findField(root, path.slice(0, -1)).node.meta.kind === 'slots'
}

function requirement(issue: z.core.$ZodIssue, meta: FieldMeta | undefined, inSlot: boolean): string {
  if (inSlot) return 'must be empty (null) or an object'
  if ((issue.code === 'too_small' || issue.code === 'too_big') && issue.origin === 'array' && issue.exact) {
    return `must have exactly ${issue.code === 'too_small' ? issue.minimum : issue.maximum} entries`
  }
  if (issue.code === 'too_small') return `must be ${issue.minimum} or more`
  if (issue.code === 'too_big') return `must be ${issue.maximum} or less`
  // Zod rejects NaN and ±Infinity as not numbers; "must be a number, not Infinity" would contradict itself.
  const input = 'input' in issue ? issue.input : undefined
  if (meta?.kind === 'number' && typeof input === 'number' && !Number.isFinite(input)) {
    return 'must be a finite number'
  }
  // A `json` field's words say nothing about its shape; the schema's expected type does.
  if (meta && meta.kind !== 'json') return `must be ${phrase(meta)}`
  if (issue.code === 'invalid_type') return `must be ${expectedPhrase(issue.expected)}`
  return `is not valid (${issue.message})`
}

function phrase(meta: FieldMeta): string {
  switch (meta.kind) {
    case 'text':
      return 'text'
    case 'url':
      return `a web address starting with http:// or https://${meta.allowEmpty ? ', or left empty' : ''}`
    case 'color':
      return 'a hex colour such as #0F766E'
    case 'number':
      return 'a number'
    case 'integer':
      return 'a whole number'
    case 'boolean':
      return 'true or false'
    case 'section':
      return 'a group of fields (a JSON object)'
    case 'list':
    case 'slots':
      return 'a list'
    case 'json':
      return 'valid data of the documented kind'
  }
}

function expectedPhrase(expected: string): string {
  const phrases: Record<string, string> = {
    string: 'text',
    number: 'a number',
    int: 'a whole number',
    boolean: 'true or false',
    object: 'a JSON object',
    record: 'a JSON object',
    array: 'a list',
  }
  return phrases[expected] ?? expected
}

function got(input: unknown): string {
  if (input === undefined) return ''
  return `, not ${describeValue(input)}`
}

export function describeValue(value: unknown): string {
  if (value === null) return 'empty (null)'
  if (Array.isArray(value)) return `a list of ${value.length}`
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value
      return value === '' ? 'empty text' : `the text "${shown}"`
    }
    case 'number':
      return Number.isFinite(value) ? `the number ${value}` : String(value)
    case 'boolean':
      return String(value)
    case 'object':
      return 'a group of fields'
    default:
      return typeof value
  }
}
