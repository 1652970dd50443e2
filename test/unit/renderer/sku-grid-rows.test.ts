import { describe, expect, it } from 'vitest'
import {
  ROW_HEIGHT,
  rowsHeight,
  rowsOnScreen,
  rowsPerPage,
  rowsToDraw,
  rowsToRead,
  scrollToReveal,
  type Viewport,
} from '#renderer/features/skus/list/virtual-rows.ts'

/** A 600-pixel grid under a 40-pixel header: 560 pixels of rows, eleven and a bit. */
const at = (scrollTop: number): Viewport => ({ scrollTop, height: 600, headHeight: 40 })
const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i)

/** Whether the row is whole between the sticky header and the bottom edge. */
function wholeOnScreen(position: number, viewport: Viewport): boolean {
  const top = position * ROW_HEIGHT
  return (
    top >= viewport.scrollTop &&
    top + ROW_HEIGHT <= viewport.scrollTop + viewport.height - viewport.headHeight
  )
}

describe('which rows the grid shows', () => {
  it('shows the rows on screen, a row cut at the bottom edge included', () => {
    expect(rowsOnScreen(at(0), 100_000)).toEqual({ first: 0, last: 11 })
    // Half a row scrolled: the first is half hidden, and a thirteenth row peeks in at the bottom.
    expect(rowsOnScreen(at(24), 100_000)).toEqual({ first: 0, last: 12 })
    expect(rowsOnScreen(at(5000 * ROW_HEIGHT), 100_000)).toEqual({ first: 5000, last: 5011 })
  })

  it('stops at the last row, at the bottom of the list or when the rows do not fill the screen', () => {
    const bottom = rowsHeight(100) + 40 - 600
    expect(rowsOnScreen(at(bottom), 100)).toEqual({ first: 88, last: 99 })
    expect(rowsOnScreen(at(0), 3)).toEqual({ first: 0, last: 2 })
  })

  it('shows one row even in a grid hardly taller than its header', () => {
    expect(rowsOnScreen({ scrollTop: 0, height: 50, headHeight: 40 }, 10)).toEqual({ first: 0, last: 0 })
  })

  it('draws a few rows either side of the screen, within the list', () => {
    expect(rowsToDraw({ first: 0, last: 11 }, 100_000, 0)).toEqual(range(0, 19))
    expect(rowsToDraw({ first: 5000, last: 5011 }, 100_000, 5003)).toEqual(range(4992, 5019))
    expect(rowsToDraw({ first: 88, last: 99 }, 100, 99)).toEqual(range(80, 99))
  })

  it('draws the active row too when it is scrolled far away, so it keeps keyboard focus', () => {
    expect(rowsToDraw({ first: 0, last: 11 }, 100_000, 70_000)).toEqual([...range(0, 19), 70_000])
    // After the last rows are deleted the active row is the new last one.
    expect(rowsToDraw({ first: 0, last: 11 }, 500, 900)).toEqual([...range(0, 19), 499])
  })

  it('draws only the rows on screen (and the active one) in the first frame, without the overscan', () => {
    expect(rowsToDraw({ first: 5000, last: 5011 }, 100_000, 5003, false)).toEqual(range(5000, 5011))
    expect(rowsToDraw({ first: 0, last: 11 }, 100_000, 70_000, false)).toEqual([...range(0, 11), 70_000])
  })

  it('draws nothing when there are no rows', () => {
    expect(rowsToDraw({ first: 0, last: -1 }, 0, 0)).toEqual([])
  })

  it('reads twice as far ahead as it draws, never before the first row', () => {
    expect(rowsToRead({ first: 5000, last: 5011 })).toEqual({ first: 4984, last: 5027 })
    expect(rowsToRead({ first: 3, last: 14 })).toEqual({ first: 0, last: 30 })
  })

  it('gives 100,000 rows a height one element can have in Chromium (about 33 million pixels)', () => {
    expect(rowsHeight(100_000)).toBe(4_800_000)
    expect(rowsHeight(100_000)).toBeLessThan(33_000_000)
  })
})

describe('scrolling a row into view', () => {
  it('leaves the scroll alone when the row is already whole on screen', () => {
    for (const position of range(100, 110)) expect(scrollToReveal(position, at(100 * ROW_HEIGHT))).toBe(4800)
  })

  it('scrolls up to a row above the screen, putting it just under the header', () => {
    expect(scrollToReveal(40, at(5000))).toBe(40 * ROW_HEIGHT)
    // A row half hidden at the top counts as off screen.
    expect(scrollToReveal(0, at(24))).toBe(0)
  })

  it('scrolls down just enough for a row below the screen to show whole at the bottom', () => {
    // Row 11 is cut by the bottom edge at the top of the list: 16 pixels show it whole.
    expect(scrollToReveal(11, at(0))).toBe(16)
    expect(scrollToReveal(1000, at(0))).toBe(1000 * ROW_HEIGHT + ROW_HEIGHT + 40 - 600)
  })

  it('always ends with the row whole on screen, from anywhere', () => {
    for (const from of [0, 24, 4800, 48_000]) {
      for (const position of [0, 1, 11, 12, 99, 100, 110, 999, 1000]) {
        const viewport = at(scrollToReveal(position, at(from)))
        expect(wholeOnScreen(position, viewport), `row ${position} from ${from}`).toBe(true)
        const { first, last } = rowsOnScreen(viewport, 100_000)
        expect(position).toBeGreaterThanOrEqual(first)
        expect(position).toBeLessThanOrEqual(last)
      }
    }
  })
})

describe('how far a page is', () => {
  it('is the rows on screen less one, and at least one row', () => {
    expect(rowsPerPage({ height: 600, headHeight: 40 })).toBe(10)
    expect(rowsPerPage({ height: 60, headHeight: 40 })).toBe(1)
  })
})
