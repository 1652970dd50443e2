/**
 * Colours as the contract writes them (#rgb, #rgba, #rrggbb, #rrggbbaa) and the WCAG 2 contrast
 * ratio between two of them. Pure: the editor's warnings and the tests use the same arithmetic.
 */

import { CSS_NAMED_COLOURS } from './css-colour-names.ts'

export interface Rgba {
  r: number
  g: number
  b: number
  /** 0–1. */
  a: number
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i

/** The colour a hex string stands for, or undefined when it is not one of the contract's forms. */
export function parseHex(value: unknown): Rgba | undefined {
  if (typeof value !== 'string' || !HEX.test(value)) return undefined
  let digits = value.slice(1)
  if (digits.length <= 4) digits = [...digits].map((digit) => digit + digit).join('')
  const channel = (i: number) => parseInt(digits.slice(i * 2, i * 2 + 2), 16)
  return { r: channel(0), g: channel(1), b: channel(2), a: digits.length === 8 ? channel(3) / 255 : 1 }
}

/**
 * The contract's hex text for a colour as typed: a CSS colour name, any case ("red",
 * "RebeccaPurple"), becomes #RRGGBB; a hex colour is written in full and upper case (#f00 →
 * #FF0000, #f008 → #FF000088), the form the picker writes. Anything else is undefined and left as
 * typed, for the field's error to point at.
 */
export function normaliseColour(value: string): string | undefined {
  const text = value.trim()
  const named = CSS_NAMED_COLOURS[text.toLowerCase()]
  if (named) return named
  if (!HEX.test(text)) return undefined
  const digits = text.slice(1)
  const full = digits.length <= 4 ? [...digits].map((digit) => digit + digit).join('') : digits
  return `#${full.toUpperCase()}`
}

/** #RRGGBB, the form `<input type="color">` reads and writes; alpha is dropped. */
export function toHex6({ r, g, b }: Rgba): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase()
}

/** A translucent colour as it shows over an opaque background. */
export function over(colour: Rgba, background: Rgba): Rgba {
  const mix = (top: number, bottom: number) => top * colour.a + bottom * (1 - colour.a)
  return {
    r: mix(colour.r, background.r),
    g: mix(colour.g, background.g),
    b: mix(colour.b, background.b),
    a: 1,
  }
}

/** WCAG 2 relative luminance of an opaque colour. */
export function luminance({ r, g, b }: Rgba): number {
  const linear = (c: number) => {
    const s = c / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/** WCAG 2 contrast ratio, 1 to 21; a translucent foreground is first laid over the background. */
export function contrastRatio(foreground: Rgba, background: Rgba): number {
  const top = luminance(over(foreground, background))
  const bottom = luminance(background)
  const [light, dark] = top > bottom ? [top, bottom] : [bottom, top]
  return (light + 0.05) / (dark + 0.05)
}

/** "4.5:1", rounded down to one decimal so a ratio shown as passing really does. */
export function formatRatio(ratio: number): string {
  return `${Math.floor(ratio * 10) / 10}:1`
}

/** WCAG 2.1 AA: 4.5:1 for text, 3:1 for icons, borders and other parts of controls. */
export const TEXT_CONTRAST = 4.5
export const GRAPHICS_CONTRAST = 3
