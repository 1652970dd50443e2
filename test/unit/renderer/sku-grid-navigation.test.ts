import { describe, expect, it } from 'vitest'
import { headerKeyAction, rowKeyAction, type KeyPress } from '#renderer/features/skus/list/grid-navigation.ts'

const press = (key: string, held: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress => ({
  key,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...held,
})

/** A key on row `active` of 1,000 rows, ten to a page. */
const onRow = (key: KeyPress, active: number) => rowKeyAction(key, active, 1000, 10)

describe('keys on a row of the grid', () => {
  it('moves up and down a row, and with Shift extends the selection', () => {
    expect(onRow(press('ArrowDown'), 3)).toEqual({ kind: 'move', to: 4, extend: false })
    expect(onRow(press('ArrowUp'), 3)).toEqual({ kind: 'move', to: 2, extend: false })
    expect(onRow(press('ArrowDown', { shiftKey: true }), 3)).toEqual({ kind: 'move', to: 4, extend: true })
  })

  it('stays on the last row at the bottom', () => {
    expect(onRow(press('ArrowDown'), 999)).toEqual({ kind: 'move', to: 999, extend: false })
  })

  it('goes up to the column headers from the first row, but not while extending the selection', () => {
    expect(onRow(press('ArrowUp'), 0)).toEqual({ kind: 'header' })
    expect(onRow(press('ArrowUp', { shiftKey: true }), 0)).toEqual({ kind: 'move', to: 0, extend: true })
  })

  it('moves a page at a time, stopping at either end', () => {
    expect(onRow(press('PageDown'), 3)).toEqual({ kind: 'move', to: 13, extend: false })
    expect(onRow(press('PageUp'), 13)).toEqual({ kind: 'move', to: 3, extend: false })
    expect(onRow(press('PageDown'), 995)).toEqual({ kind: 'move', to: 999, extend: false })
    expect(onRow(press('PageUp'), 4)).toEqual({ kind: 'move', to: 0, extend: false })
  })

  it('goes to the first and the last row with Home and End', () => {
    expect(onRow(press('Home'), 500)).toEqual({ kind: 'move', to: 0, extend: false })
    expect(onRow(press('End'), 500)).toEqual({ kind: 'move', to: 999, extend: false })
    expect(onRow(press('End', { shiftKey: true }), 500)).toEqual({ kind: 'move', to: 999, extend: true })
  })

  it('leaves Alt with a moving key to the system', () => {
    expect(onRow(press('ArrowDown', { altKey: true }), 3)).toBeUndefined()
    expect(onRow(press('Home', { altKey: true }), 3)).toBeUndefined()
  })

  it('selects with Space and opens with Enter', () => {
    expect(onRow(press(' '), 3)).toEqual({ kind: 'toggle' })
    expect(onRow(press(' ', { shiftKey: true }), 3)).toEqual({ kind: 'toggle' })
    expect(onRow(press('Enter'), 3)).toEqual({ kind: 'open' })
  })

  it('shows the row’s problems with I, in either case, but not with Ctrl, Cmd or Alt', () => {
    expect(onRow(press('i'), 3)).toEqual({ kind: 'problems' })
    expect(onRow(press('I', { shiftKey: true }), 3)).toEqual({ kind: 'problems' })
    expect(onRow(press('i', { ctrlKey: true }), 3)).toBeUndefined()
    expect(onRow(press('i', { metaKey: true }), 3)).toBeUndefined()
    expect(onRow(press('i', { altKey: true }), 3)).toBeUndefined()
  })

  it('leaves other keys to the page’s shortcuts', () => {
    expect(onRow(press(' ', { ctrlKey: true }), 3)).toBeUndefined()
    expect(onRow(press(' ', { metaKey: true }), 3)).toBeUndefined()
    expect(onRow(press('Delete'), 3)).toBeUndefined()
    expect(onRow(press('a', { ctrlKey: true }), 3)).toBeUndefined()
    expect(onRow(press('ArrowLeft'), 3)).toBeUndefined()
  })
})

describe('keys on the column headers', () => {
  it('moves between the controls with ArrowLeft and ArrowRight, stopping at either end', () => {
    expect(headerKeyAction('ArrowRight', 2, 7)).toEqual({ kind: 'control', index: 3 })
    expect(headerKeyAction('ArrowLeft', 2, 7)).toEqual({ kind: 'control', index: 1 })
    expect(headerKeyAction('ArrowRight', 6, 7)).toEqual({ kind: 'control', index: 6 })
    expect(headerKeyAction('ArrowLeft', 0, 7)).toEqual({ kind: 'control', index: 0 })
  })

  it('goes to the first and the last control with Home and End', () => {
    expect(headerKeyAction('Home', 4, 7)).toEqual({ kind: 'control', index: 0 })
    expect(headerKeyAction('End', 1, 7)).toEqual({ kind: 'control', index: 6 })
  })

  it('goes back to the rows with ArrowDown', () => {
    expect(headerKeyAction('ArrowDown', 3, 7)).toEqual({ kind: 'rows' })
  })

  it('leaves other keys to the control (Enter and Space sort, Tab leaves the grid)', () => {
    expect(headerKeyAction('Enter', 3, 7)).toBeUndefined()
    expect(headerKeyAction(' ', 3, 7)).toBeUndefined()
    expect(headerKeyAction('Tab', 3, 7)).toBeUndefined()
    expect(headerKeyAction('ArrowUp', 3, 7)).toBeUndefined()
  })
})
