import { readNumberText } from './number-text.ts'

/**
 * Lengths as sheets write them: "52", "52 mm", "5,2 cm", or a bare number in a column whose header
 * names the unit ("Frame Width (mm)"). The contract keeps them as plain text: frame measures are
 * millimetres by the trade's convention (the contract's own example is a frame width of "137"), and
 * `meta.dimensions` says its unit in `dimensions.unit` (the platform's SDK uses centimetres).
 */

/** A contract path, dotted. */
type FieldPath = string

export type LengthUnit = 'mm' | 'cm' | 'in'

/** Unit words as sheets write them. */
export const LENGTH_UNITS: Record<string, LengthUnit> = {
  mm: 'mm',
  millimeter: 'mm',
  millimeters: 'mm',
  millimetre: 'mm',
  millimetres: 'mm',
  cm: 'cm',
  centimeter: 'cm',
  centimeters: 'cm',
  centimetre: 'cm',
  centimetres: 'cm',
  in: 'in',
  inch: 'in',
  inches: 'in',
}

/** Frame measures: text in millimetres, any unit written in the cell or header dropped. */
const FRAME_MEASURES = new Set<FieldPath>([
  'meta.frameWidth',
  'meta.lensWidth',
  'meta.lensHeight',
  'meta.bridge',
  'meta.temple',
])
/** Measures whose unit goes to `meta.dimensions.unit`. */
export const DIMENSIONS = [
  'meta.dimensions.width',
  'meta.dimensions.height',
  'meta.dimensions.length',
] as const
export const DIMENSION_UNIT: FieldPath = 'meta.dimensions.unit'
/** What the platform's SDK uses: mixed units in one row are converted to it. */
export const PLATFORM_LENGTH_UNIT: LengthUnit = 'cm'

export function isMeasure(path: FieldPath): boolean {
  return FRAME_MEASURES.has(path) || (DIMENSIONS as readonly string[]).includes(path)
}

export function isFrameMeasure(path: FieldPath): boolean {
  return FRAME_MEASURES.has(path)
}

const MM_PER: Record<LengthUnit, number> = { mm: 1, cm: 10, in: 25.4 }

export function convertLength(amount: number, from: LengthUnit, to: LengthUnit): number {
  return from === to ? amount : (amount * MM_PER[from]) / MM_PER[to]
}

/** An amount as the contract's text: no float noise ("5.2", not "5.200000000000001"). */
export function amountText(amount: number): string {
  return String(Number(amount.toPrecision(12)))
}

/** A unit as a cell or a PIM's unit column writes it: "mm", "Millimeter", "MILLIMETER", "cm". */
export function lengthUnitOf(text: string): LengthUnit | undefined {
  return LENGTH_UNITS[text.trim().toLowerCase()]
}

export type MeasureRead =
  /** A number, with the unit the cell wrote (if any). */
  | { amount: number; unit?: LengthUnit }
  /** Not a length (free text such as "52-18-140"): kept as written. */
  | { text: string }
  | { error: string }
  | { absent: true }

const WITH_UNIT = /^(.*?\d)\s*([a-z"″]+)\.?$/i

/** One cell of a measure: a number and an optional unit, or text kept as it is. */
export function readMeasure(
  text: string,
  { name, decimalComma = false }: { name: string; decimalComma?: boolean },
): MeasureRead {
  const trimmed = text.trim()
  if (trimmed === '') return { absent: true }
  let number = trimmed
  let unit: LengthUnit | undefined
  const suffixed = WITH_UNIT.exec(trimmed)
  if (suffixed) {
    const word = suffixed[2]!.toLowerCase()
    unit = word === '"' || word === '″' ? 'in' : LENGTH_UNITS[word]
    if (!unit) return { text }
    number = suffixed[1]!
  }
  // Only what looks like a number is read as one; anything else is the person's own text.
  if (!/^[+-]?[\d.,]+$/.test(number.trim())) return { text }
  const read = readNumberText(number, { name, decimalComma })
  if ('error' in read) return read
  if ('absent' in read) return { absent: true }
  return { amount: read.value, ...(unit && { unit }) }
}
