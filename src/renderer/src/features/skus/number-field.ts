import type { FieldMeta } from '#shared/schema/field.ts'
import { readNumberText } from '#shared/values/number-text.ts'

/**
 * How a number field of the form turns its text into the draft's value and back, and steps it.
 * The text is read as the importer reads a cell (`readNumberText`), so the editor never guesses
 * either: "1,5" is not turned into 15, "abc" is not dropped.
 */

/**
 * What the field's text puts in the draft: the number it reads as, nothing when emptied, and
 * otherwise the text as typed. Kept rather than refused, so it stays where the person typed it
 * and validation reports it on the field, as it would a wrong value from a sheet.
 */
export function numberEntry(text: string, meta: FieldMeta): unknown {
  const read = readNumberText(text, { name: meta.title, integer: meta.kind === 'integer' })
  if ('absent' in read) return undefined
  return 'value' in read ? read.value : text
}

/** The text that shows a stored value: a number as JavaScript writes it, text as it was kept. */
export function numberText(value: unknown): string {
  if (typeof value === 'number') return String(value)
  return typeof value === 'string' ? value : ''
}

/** The arrow keys' increment: the field's own step, and 1 for whole numbers or without one. */
export function stepOf(meta: FieldMeta): number {
  return meta.kind === 'integer' ? 1 : (meta.step ?? 1)
}

/**
 * `value` moved by `steps` steps, rounded to the decimals of the step or of the value, whichever
 * has more: floating point adds noise (0.1 + 0.2 is 0.30000000000000004) that the field would
 * otherwise show and store, while digits the person typed beyond the step are theirs to keep.
 */
export function stepped(value: number, step: number, steps: number): number {
  const decimals = Math.min(Math.max(decimalsOf(step), decimalsOf(value)), MAX_DECIMALS)
  return Number((value + step * steps).toFixed(decimals))
}

/** The most `toFixed` accepts. */
const MAX_DECIMALS = 100

/** Digits after the point as JavaScript writes the number (1e-7 has 7, 1.5e-7 has 8). */
function decimalsOf(value: number): number {
  const [mantissa = '', exponent = '0'] = String(value).toLowerCase().split('e')
  const fraction = mantissa.split('.')[1]?.length ?? 0
  return Math.max(0, fraction - Number(exponent))
}
