import { describe, expect, it } from 'vitest'
import { readNumberText } from '#shared/values/number-text.ts'
import { validateAppRequest, validateSku } from '#shared/validation/validate.ts'

const name = 'Intensity'

describe('readNumberText', () => {
  it.each([
    ['1.5', 1.5],
    ['  1.5  ', 1.5],
    ['-2', -2],
    ['+3', 3],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['1.5E-2', 0.015],
    ['0', 0],
  ])('reads "%s" as %d', (text, value) => {
    expect(readNumberText(text, { name })).toEqual({ value })
  })

  it('says empty text is absent, not zero', () => {
    expect(readNumberText('', { name })).toEqual({ absent: true })
    expect(readNumberText('   ', { name })).toEqual({ absent: true })
  })

  it('refuses a comma, saying to use a dot: "1,5" is never read as 15', () => {
    const dot = 'with a dot for decimals and no thousands separator (such as 1234.5)'
    expect(readNumberText('1,5', { name })).toEqual({
      error: `Intensity must be a number ${dot}, not the text "1,5"`,
    })
    expect(readNumberText('1,500', { name })).toEqual({
      error: `Intensity must be a number ${dot}, not the text "1,500"`,
    })
    expect(readNumberText('1,234.5', { name })).toEqual({
      error: `Intensity must be a number ${dot}, not the text "1,234.5"`,
    })
  })

  it.each(['abc', '1.2.3', '1 500', '0x10', 'Infinity', 'NaN', '1e999', '--1', '1-'])(
    'refuses "%s" as not a number',
    (text) => {
      expect(readNumberText(text, { name })).toEqual({
        error: `Intensity must be a number, not the text "${text}"`,
      })
    },
  )

  it('reads a decimal comma only when told the text writes decimals that way, and then refuses a dot', () => {
    expect(readNumberText('1,5', { name, decimalComma: true })).toEqual({ value: 1.5 })
    expect(readNumberText(',5', { name, decimalComma: true })).toEqual({ value: 0.5 })
    expect(readNumberText('12', { name, decimalComma: true })).toEqual({ value: 12 })
    expect(readNumberText('1.500', { name, decimalComma: true })).toEqual({
      error:
        'Intensity must be a number with a comma for decimals and no thousands separator (such as 1234,5), not the text "1.500"',
    })
    expect(readNumberText('1,5,0', { name, decimalComma: true })).toEqual({
      error: 'Intensity must be a number, not the text "1,5,0"',
    })
  })

  it('asks for a whole number where the field holds one', () => {
    expect(readNumberText('42', { name: 'Days', integer: true })).toEqual({ value: 42 })
    expect(readNumberText('1.5', { name: 'Days', integer: true })).toEqual({
      error: 'Days must be a whole number, not the text "1.5"',
    })
    expect(readNumberText('abc', { name: 'Days', integer: true })).toEqual({
      error: 'Days must be a whole number, not the text "abc"',
    })
  })
})

/** The editor keeps text that is not a number in the draft; validation reports it in the reader's words. */
describe('text kept in a number field, as validation says it', () => {
  const intensityError = (value: unknown) =>
    validateSku({ productName: 'x', arEffect: { envSettings: { intensity: value } } }).errors.filter(
      (error) => error.path === 'arEffect.envSettings.intensity',
    )

  it('says why "1,5" is not a number, as the reader does', () => {
    expect(intensityError('1,5')).toEqual([
      {
        path: 'arEffect.envSettings.intensity',
        message: (readNumberText('1,5', { name }) as { error: string }).error,
      },
    ])
  })

  it('keeps the schema’s words where the reader has none to add', () => {
    expect(intensityError('abc')).toEqual([
      { path: 'arEffect.envSettings.intensity', message: 'Intensity must be a number, not the text "abc"' },
    ])
    // A number kept as text (quoted in JSON): the reader reads it, so only its type is wrong.
    expect(intensityError('1.5')).toEqual([
      { path: 'arEffect.envSettings.intensity', message: 'Intensity must be a number, not the text "1.5"' },
    ])
    expect(intensityError('')).toEqual([
      { path: 'arEffect.envSettings.intensity', message: 'Intensity must be a number, not empty text' },
    ])
  })

  it('says it for whole-number fields too', () => {
    const { errors } = validateAppRequest({ name: 'Skin check', expire_images_after_days: '1.5' })
    expect(errors).toEqual([
      {
        path: 'expire_images_after_days',
        message: 'Image retention (days) must be a whole number, not the text "1.5"',
      },
    ])
  })
})
