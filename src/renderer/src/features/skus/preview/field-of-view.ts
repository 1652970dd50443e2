/** What the preview does with a SKU's `fieldOfView` text, such as "30deg". */
export interface FieldOfViewChoice {
  /** Vertical field of view of the preview's camera. */
  degrees: number
  /** Set when the text could not be used as it is. */
  note?: string
}

/** model-viewer's usual framing, and what "auto" or an absent value mean here. */
export const DEFAULT_FIELD_OF_VIEW = 30
const MIN_DEGREES = 10
const MAX_DEGREES = 90

/** A number with an optional unit: "30deg", "30", "0.52rad" (CSS angle units, as model-viewer takes). */
const ANGLE = /^\s*([+-]?(?:\d+\.?\d*|\.\d+))\s*(deg|rad|grad|turn)?\s*$/i
const DEGREES_PER_UNIT: Record<string, number> = { deg: 1, rad: 180 / Math.PI, grad: 0.9, turn: 360 }

export function fieldOfViewFor(value: unknown): FieldOfViewChoice {
  if (value === undefined || value === '') return { degrees: DEFAULT_FIELD_OF_VIEW }
  if (typeof value === 'number') return clamp(value, `${value}`)
  if (typeof value !== 'string') {
    return { degrees: DEFAULT_FIELD_OF_VIEW, note: 'Field of view is not text; the preview uses 30°.' }
  }
  if (value.trim().toLowerCase() === 'auto') return { degrees: DEFAULT_FIELD_OF_VIEW }
  const match = ANGLE.exec(value)
  if (!match) {
    return {
      degrees: DEFAULT_FIELD_OF_VIEW,
      note: `Field of view "${value}" is not an angle such as 30deg; the preview uses 30°.`,
    }
  }
  const unit = (match[2] ?? 'deg').toLowerCase()
  return clamp(Number(match[1]) * DEGREES_PER_UNIT[unit]!, value)
}

function clamp(degrees: number, written: string): FieldOfViewChoice {
  if (!Number.isFinite(degrees)) {
    return {
      degrees: DEFAULT_FIELD_OF_VIEW,
      note: `Field of view "${written}" is not usable; the preview uses 30°.`,
    }
  }
  const clamped = Math.min(MAX_DEGREES, Math.max(MIN_DEGREES, degrees))
  if (clamped === degrees) return { degrees }
  return {
    degrees: clamped,
    note: `Field of view "${written}" is outside ${MIN_DEGREES}–${MAX_DEGREES}°; the preview uses ${clamped}°.`,
  }
}
