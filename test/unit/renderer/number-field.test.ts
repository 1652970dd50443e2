import { describe, expect, it } from 'vitest'
import type { FieldMeta } from '#shared/schema/field.ts'
import { numberEntry, numberText, stepOf, stepped } from '#renderer/features/skus/number-field.ts'

const intensity: FieldMeta = { title: 'Intensity', kind: 'number', expected: true, step: 0.1 }
const count: FieldMeta = { title: 'Days', kind: 'integer', expected: true }

describe('what a number field puts in the draft', () => {
  it.each([
    ['1.5', 1.5],
    [' 2 ', 2],
    ['-0.25', -0.25],
    ['.5', 0.5],
    ['1e3', 1000],
  ])('"%s" is the number %d', (text, value) => {
    expect(numberEntry(text, intensity)).toBe(value)
  })

  it('keeps text that is not a number as typed, so validation shows it on the field', () => {
    for (const text of ['1,5', 'abc', '1.2.3', '1 500', 'Infinity', '0x10', '1,5 ']) {
      expect(numberEntry(text, intensity), text).toBe(text)
    }
    expect(numberEntry('1.5', count)).toBe('1.5')
  })

  it('is nothing when emptied', () => {
    expect(numberEntry('', intensity)).toBeUndefined()
    expect(numberEntry('   ', intensity)).toBeUndefined()
  })

  it('shows a stored number as JavaScript writes it, kept text as it was typed', () => {
    expect(numberText(1.5)).toBe('1.5')
    expect(numberText(-0.5)).toBe('-0.5')
    expect(numberText('1,5')).toBe('1,5')
    expect(numberText(undefined)).toBe('')
    expect(numberText(null)).toBe('')
    expect(numberText(true)).toBe('')
  })

  it('reads back what it shows', () => {
    for (const value of [0, 1.5, -2.25, 0.001, 1e-7, 123456.789, 'abc', '1,5']) {
      expect(numberEntry(numberText(value), intensity)).toBe(value)
    }
  })
})

describe('the arrow keys', () => {
  it('move by the field’s step, 1 for whole numbers or without one', () => {
    expect(stepOf(intensity)).toBe(0.1)
    expect(stepOf(count)).toBe(1)
    expect(stepOf({ ...intensity, step: undefined })).toBe(1)
    expect(stepOf({ ...count, step: 0.5 })).toBe(1)
  })

  it('leave no floating-point noise', () => {
    expect(stepped(0.2, 0.1, 1)).toBe(0.3)
    expect(stepped(0.3, 0.1, -1)).toBe(0.2)
    expect(stepped(0, 0.001, 1)).toBe(0.001)
    expect(stepped(0, 0.5, -1)).toBe(-0.5)
    expect(stepped(0.7, 0.05, 1)).toBe(0.75)
    let value = 0
    for (let i = 0; i < 30; i++) value = stepped(value, 0.1, 1)
    expect(value).toBe(3)
  })

  it('keep digits typed beyond the step', () => {
    expect(stepped(0.0015, 0.001, 1)).toBe(0.0025)
    expect(stepped(1.25, 1, 1)).toBe(2.25)
    expect(stepped(1e-7, 0.1, 1)).toBe(0.1000001)
  })

  it('step whole numbers and large numbers exactly', () => {
    expect(stepped(41, 1, 1)).toBe(42)
    expect(stepped(-1, 1, 1)).toBe(0)
    expect(stepped(1e21, 1, 1)).toBe(1e21 + 1)
  })
})
