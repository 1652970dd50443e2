import { describe, expect, it } from 'vitest'
import { normaliseColour, parseHex } from '#shared/apps/colour.ts'
import { appCreateSummary } from '#shared/apps/create-summary.ts'
import { CSS_NAMED_COLOURS } from '#shared/apps/css-colour-names.ts'
import { newAppPayload } from '#shared/apps/defaults.ts'

describe('normaliseColour', () => {
  it('turns CSS colour names, in any case, into #RRGGBB', () => {
    expect(normaliseColour('red')).toBe('#FF0000')
    expect(normaliseColour('RebeccaPurple')).toBe('#663399')
    expect(normaliseColour('  LightGoldenrodYellow ')).toBe('#FAFAD2')
    expect(normaliseColour('grey')).toBe(normaliseColour('gray'))
  })

  it('writes short and lower-case hex in full, upper case, keeping alpha', () => {
    expect(normaliseColour('#f00')).toBe('#FF0000')
    expect(normaliseColour('#f008')).toBe('#FF000088')
    expect(normaliseColour('#0f766e')).toBe('#0F766E')
    expect(normaliseColour('#0F766E80')).toBe('#0F766E80')
  })

  it('leaves what is neither a name nor hex alone', () => {
    for (const text of ['', 'reddish', 'transparent', 'currentcolor', '#12', '#GGGGGG', 'rgb(1,2,3)', 'f00'])
      expect(normaliseColour(text)).toBeUndefined()
  })

  it('knows the 148 named colours of CSS Color 4, each as valid #RRGGBB', () => {
    const names = Object.keys(CSS_NAMED_COLOURS)
    expect(names).toHaveLength(148)
    for (const name of names) {
      expect(name).toBe(name.toLowerCase())
      expect(CSS_NAMED_COLOURS[name]).toMatch(/^#[0-9A-F]{6}$/)
      expect(parseHex(normaliseColour(name))).toBeDefined()
    }
    expect(CSS_NAMED_COLOURS.white).toBe('#FFFFFF')
    expect(CSS_NAMED_COLOURS.teal).toBe('#008080')
    expect(CSS_NAMED_COLOURS.aqua).toBe(CSS_NAMED_COLOURS.cyan)
  })
})

describe('appCreateSummary', () => {
  it('reads the settings worth confirming from a new app', () => {
    const payload = { ...newAppPayload(), name: 'Glow check' }
    const lines = Object.fromEntries(appCreateSummary(payload).map((line) => [line.label, line.value]))
    expect(lines['App name']).toBe('Glow check')
    expect(lines.Status).toBe('enabled')
    expect(lines['Image retention']).toBe('365 days (1 year)')
    expect(lines['Skin concerns']).toMatch(/^9 of 9 on: acne, wrinkles, pores, dark circles/)
    expect(lines.Theme).toContain('#0F766E')
    expect(lines.Languages).toBe('en')
    expect(lines['Allowed domains']).toBe('Any (none listed)')
  })

  it('says "Not set" for what is absent or not of its type', () => {
    const lines = Object.fromEntries(appCreateSummary({ name: 3 }).map((line) => [line.label, line.value]))
    expect(lines['App name']).toBe('Not set')
    expect(lines['Skin concerns']).toBe('Not set')
    expect(lines['Image retention']).toBe('Not set')
  })
})
