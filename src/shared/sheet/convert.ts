import type { FieldMeta } from '../schema/field.ts'
import { describeValue } from '../validation/messages.ts'
import { columnTarget, describeColumn, JSON_COLUMN_PREFIX } from './columns.ts'
import { isPlainNumber } from './formula.ts'
import type { FieldPath } from './types.ts'

/**
 * One cell's text turned into the value its field holds, by the field's kind in the catalogue
 * (never by what the text looks like): "52" stays the text "52" in a meta field and becomes the
 * number 52 in a number field.
 *
 * - An empty cell (or one of spaces only) means the field is absent, except in fields that allow
 *   an empty string (orgId, actionUrl), where it means "".
 * - Text, web address and colour cells are kept exactly as written, spaces included, but for the
 *   barcode: it identifies the product (duplicates are found by it), so spaces around it go. (One a
 *   spreadsheet shortened to 8.90123E+12 is refused by validation, wherever it comes from.)
 * - Numbers: plain or exponent notation with a dot for decimals, surrounding spaces ignored. A
 *   comma is refused rather than guessed at: "1,5" (decimal comma) and "1,234" (thousands) read
 *   differently by locale, and a silently wrong number is worse than a clear error.
 * - Booleans: true/false, yes/no, 1/0 in any case.
 * - A 2D slot: empty or `null` is an empty slot, otherwise a JSON object.
 * - JSON columns (`json:PATH`, fields of kind json, paths the catalogue does not describe): JSON.
 */
export type Converted = { value: unknown } | { error: string }

export type CellConverter = (text: string) => Converted

const ABSENT: Converted = { value: undefined }
const BOOLEANS: Record<string, boolean> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  1: true,
  0: false,
}

export function cellConverter(path: FieldPath): CellConverter {
  const name = describeColumn(path)
  if (path.startsWith(JSON_COLUMN_PREFIX)) return jsonCell(name)
  const target = columnTarget(path)
  if (target.kind === 'slot') return slotCell(name)
  if (target.kind === 'json') return jsonCell(name)
  if (path === 'barcode') return barcodeCell
  return leafCell(target.node.meta, name)
}

function barcodeCell(text: string): Converted {
  const trimmed = text.trim()
  return trimmed === '' ? ABSENT : { value: trimmed }
}

/** Converts one cell of `path`; see {@link cellConverter} for the rules. */
export function convertCell(path: FieldPath, text: string): Converted {
  return cellConverter(path)(text)
}

function leafCell(meta: FieldMeta, name: string): CellConverter {
  const empty: Converted = meta.allowEmpty ? { value: '' } : ABSENT
  switch (meta.kind) {
    case 'number':
    case 'integer':
      return (text) => {
        const trimmed = text.trim()
        if (trimmed === '') return empty
        const wanted = meta.kind === 'integer' ? 'a whole number' : 'a number'
        if (trimmed.includes(',')) {
          return {
            error: `${name} must be ${wanted} with a dot for decimals and no thousands separator (such as 1234.5), not ${describeValue(text)}`,
          }
        }
        const number = Number(trimmed)
        if (!isPlainNumber(trimmed) || !Number.isFinite(number))
          return { error: `${name} must be ${wanted}, not ${describeValue(text)}` }
        if (meta.kind === 'integer' && !Number.isInteger(number))
          return { error: `${name} must be a whole number, not ${describeValue(text)}` }
        return { value: number }
      }
    case 'boolean':
      return (text) => {
        const trimmed = text.trim()
        if (trimmed === '') return empty
        const value = BOOLEANS[trimmed.toLowerCase()]
        return value === undefined
          ? { error: `${name} must be true or false (or yes/no, 1/0), not ${describeValue(text)}` }
          : { value }
      }
    case 'json':
      return jsonCell(name)
    default:
      return (text) => (text.trim() === '' ? empty : { value: text })
  }
}

function parseJson(text: string): { value: unknown } | { reason: string } {
  try {
    return { value: JSON.parse(text) as unknown }
  } catch (error) {
    return { reason: (error as Error).message }
  }
}

function jsonCell(name: string): CellConverter {
  return (text) => {
    if (text.trim() === '') return ABSENT
    const parsed = parseJson(text)
    if ('reason' in parsed)
      return { error: `${name} must be JSON (such as "text", 12 or {"key": "value"}): ${parsed.reason}` }
    return parsed
  }
}

function slotCell(name: string): CellConverter {
  return (text) => {
    const trimmed = text.trim()
    if (trimmed === '' || trimmed === 'null') return { value: null }
    const parsed = parseJson(trimmed)
    const value = 'value' in parsed ? parsed.value : undefined
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      const why = 'reason' in parsed ? `it is not JSON (${parsed.reason})` : `not ${describeValue(value)}`
      return { error: `${name} must be empty, null or a JSON object such as {"url": "https://…"}; ${why}` }
    }
    return { value }
  }
}
