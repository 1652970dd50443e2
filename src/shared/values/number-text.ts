import { describeValue } from '../validation/messages.ts'

/**
 * A number as a person types it into a cell or an input, read the one way the importer, the
 * editor and bulk edits share. Never guessed at: "1,5" is one and a half in much of Europe and
 * "1,500" is fifteen hundred in the US, so a comma is refused unless the person said the text
 * writes decimals with a comma; then "1,5" is 1.5 and a dot is refused instead ("1.500" would be
 * fifteen hundred there). Thousands separators are refused either way.
 */
export interface NumberTextOptions {
  /** The field's words for messages ("Intensity"). */
  name: string
  integer?: boolean
  /** The text writes decimals with a comma ("1,5"). */
  decimalComma?: boolean
}

export type NumberRead = { value: number } | { error: string } | { absent: true }

const DOT_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
const COMMA_NUMBER = /^[+-]?(?:\d+,?\d*|,\d+)(?:[eE][+-]?\d+)?$/

export function readNumberText(
  text: string,
  { name, integer = false, decimalComma = false }: NumberTextOptions,
): NumberRead {
  const trimmed = text.trim()
  if (trimmed === '') return { absent: true }
  const wanted = integer ? 'a whole number' : 'a number'
  const shown = describeValue(text)
  let plain: string
  if (decimalComma) {
    if (trimmed.includes('.'))
      return {
        error: `${name} must be ${wanted} with a comma for decimals and no thousands separator (such as 1234,5), not ${shown}`,
      }
    if (!COMMA_NUMBER.test(trimmed)) return { error: `${name} must be ${wanted}, not ${shown}` }
    plain = trimmed.replace(',', '.')
  } else {
    if (trimmed.includes(','))
      return {
        error: `${name} must be ${wanted} with a dot for decimals and no thousands separator (such as 1234.5), not ${shown}`,
      }
    if (!DOT_NUMBER.test(trimmed)) return { error: `${name} must be ${wanted}, not ${shown}` }
    plain = trimmed
  }
  const value = Number(plain)
  if (!Number.isFinite(value)) return { error: `${name} must be ${wanted}, not ${shown}` }
  if (integer && !Number.isInteger(value)) return { error: `${name} must be a whole number, not ${shown}` }
  return { value }
}
