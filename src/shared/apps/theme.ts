import { getAt } from '../json-path.ts'
import { DEFAULT_COLOURS } from './defaults.ts'
import {
  contrastRatio,
  formatRatio,
  GRAPHICS_CONTRAST,
  parseHex,
  TEXT_CONTRAST,
  type Rgba,
} from './colour.ts'

/**
 * The theme as the preview draws it and the editor checks it. The contract names three colours
 * (icon, primary, selection) and a theme type; it does not say what the platform draws them on or
 * with. The product assumes the usual: a white page for "light" and a near-black one for "dark",
 * white text on primary-coloured buttons. Those assumptions are the preview's and the warnings'.
 */
export type ThemeKind = 'light' | 'dark'

export const THEME_PAGES: Record<
  ThemeKind,
  { background: string; surface: string; text: string; muted: string }
> = {
  light: { background: '#FFFFFF', surface: '#F3F4F6', text: '#111827', muted: '#4B5563' },
  dark: { background: '#111827', surface: '#1F2937', text: '#F9FAFB', muted: '#C2C8D0' },
}

/** Text on a primary-coloured button. */
export const ON_PRIMARY = '#FFFFFF'

export const COLOUR_KEYS = ['primaryColor', 'iconColor', 'selectionColor'] as const
export type ColourKey = (typeof COLOUR_KEYS)[number]

const THEME_PATH = ['appConfig', 'ui_config', 'appearance', 'theme'] as const

/** "dark" when the colour scheme (or else the theme type) says dark; anything else draws light. */
export function themeKind(payload: unknown): ThemeKind {
  const scheme = getAt(payload, [...THEME_PATH, 'configuration', 'theme'])
  const type = getAt(payload, [...THEME_PATH, 'type'])
  const word = typeof scheme === 'string' && scheme ? scheme : type
  return typeof word === 'string' && word.trim().toLowerCase() === 'dark' ? 'dark' : 'light'
}

/** The colour the payload holds for `key`, or undefined when it holds none or not a colour. */
export function themeColour(payload: unknown, key: ColourKey): Rgba | undefined {
  return parseHex(getAt(payload, [...THEME_PATH, 'configuration', key]))
}

/** The colour the preview uses for `key`: the payload's, else the default. */
export function shownColour(payload: unknown, key: ColourKey): string {
  const value = getAt(payload, [...THEME_PATH, 'configuration', key])
  return parseHex(value) ? (value as string) : DEFAULT_COLOURS[key]
}

/**
 * Colours shoppers may find hard to see, with WCAG 2.1 AA's thresholds: icons and the selection
 * mark need 3:1 against the page, a primary button 3:1 against the page and 4.5:1 with its text.
 */
export function contrastWarnings(payload: unknown): Record<ColourKey, string[]> {
  const kind = themeKind(payload)
  const page = parseHex(THEME_PAGES[kind].background)!
  const onPrimary = parseHex(ON_PRIMARY)!
  const out: Record<ColourKey, string[]> = { primaryColor: [], iconColor: [], selectionColor: [] }
  const against = (
    key: ColourKey,
    colour: Rgba,
    other: Rgba,
    otherName: string,
    needed: number,
    what: string,
  ) => {
    const ratio = contrastRatio(colour, other)
    if (ratio < needed) {
      out[key].push(
        `${formatRatio(ratio)} against ${otherName}: ${what} need at least ${needed}:1 to be read easily.`,
      )
    }
  }
  const primary = themeColour(payload, 'primaryColor')
  if (primary) {
    against('primaryColor', onPrimary, primary, 'its white button text', TEXT_CONTRAST, 'button labels')
    against('primaryColor', primary, page, `the ${kind} page`, GRAPHICS_CONTRAST, 'buttons')
  }
  const icon = themeColour(payload, 'iconColor')
  if (icon) against('iconColor', icon, page, `the ${kind} page`, GRAPHICS_CONTRAST, 'icons')
  const selection = themeColour(payload, 'selectionColor')
  if (selection)
    against('selectionColor', selection, page, `the ${kind} page`, GRAPHICS_CONTRAST, 'selection marks')
  return out
}

/** A CSS font-family list for the font the payload names, falling back to the system's sans-serif. */
export function fontStack(font: unknown): string {
  const name = typeof font === 'string' ? font.replace(/["\\;{}]/g, '').trim() : ''
  return name ? `"${name}", system-ui, sans-serif` : 'system-ui, sans-serif'
}
