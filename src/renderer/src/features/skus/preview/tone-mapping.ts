/**
 * The curves the preview draws with, by name: the page reads the SKU's text into one of these and
 * the preview's worker turns it into three.js's constant (preview-worker.ts), so the page never
 * loads three.js.
 */
export type ToneMappingCurve = 'neutral' | 'aces' | 'agx' | 'linear' | 'none'

/** What the preview does with a SKU's `toneMapping` text. */
export interface ToneMappingChoice {
  mapping: ToneMappingCurve
  /** The curve's name, for the list of applied settings. */
  label: string
  /** Set when the text was not one of the known names and a default stands in. */
  note?: string
}

const NEUTRAL = { mapping: 'neutral', label: 'Khronos PBR Neutral' } as const

/**
 * The contract leaves the values open; these are the names the service's docs suggest, plus the
 * two plain curves. Names follow model-viewer's `tone-mapping` attribute, whose "commerce" is the
 * earlier name of its neutral curve (Khronos PBR Neutral, made to keep product colours true).
 */
const KNOWN: Record<string, Omit<ToneMappingChoice, 'note'>> = {
  aces: { mapping: 'aces', label: 'ACES Filmic' },
  acesfilmic: { mapping: 'aces', label: 'ACES Filmic' },
  agx: { mapping: 'agx', label: 'AgX' },
  neutral: NEUTRAL,
  commerce: { ...NEUTRAL, label: 'Khronos PBR Neutral (commerce)' },
  auto: { ...NEUTRAL, label: 'Khronos PBR Neutral (auto)' },
  linear: { mapping: 'linear', label: 'Linear' },
  none: { mapping: 'none', label: 'None' },
}

export const KNOWN_TONE_MAPPINGS = ['aces', 'agx', 'neutral', 'commerce', 'linear', 'none'] as const

export function toneMappingFor(value: unknown): ToneMappingChoice {
  if (value === undefined || value === '') {
    return { ...NEUTRAL, note: 'Tone mapping is not set; the preview uses neutral.' }
  }
  if (typeof value !== 'string') {
    return { ...NEUTRAL, note: 'Tone mapping is not text; the preview uses neutral.' }
  }
  const known =
    KNOWN[
      value
        .trim()
        .toLowerCase()
        .replace(/[\s_-]+/g, '')
    ]
  if (known) return { ...known }
  return {
    ...NEUTRAL,
    note: `Tone mapping "${value}" is not one the preview knows (${KNOWN_TONE_MAPPINGS.join(', ')}); it uses neutral.`,
  }
}
