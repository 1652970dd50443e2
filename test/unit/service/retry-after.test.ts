import { describe, expect, it } from 'vitest'
import { parseRetryAfter } from '#node/service/retry-after.ts'

const NOW = Date.parse('2030-06-01T08:00:00Z')

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['1', 1_000],
    [' 120 ', 120_000],
    ['86400', 86_400_000],
  ])('reads delay-seconds %j', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms)
  })

  it('reads an IMF-fixdate', () => {
    expect(parseRetryAfter('Sat, 01 Jun 2030 08:00:30 GMT', NOW)).toBe(30_000)
  })

  it('reads the obsolete RFC 850 and asctime forms', () => {
    expect(parseRetryAfter('Saturday, 01-Jun-30 08:01:00 GMT', NOW)).toBe(60_000)
    expect(parseRetryAfter('Sat Jun  1 08:00:05 2030', NOW)).toBeTypeOf('number')
  })

  it('treats a date in the past as now', () => {
    expect(parseRetryAfter('Sat, 01 Jun 2030 07:00:00 GMT', NOW)).toBe(0)
  })

  it('caps an absurd wait at a week', () => {
    expect(parseRetryAfter('999999999999', NOW)).toBe(7 * 24 * 3_600_000)
    expect(parseRetryAfter('Fri, 01 Jan 2100 00:00:00 GMT', NOW)).toBe(7 * 24 * 3_600_000)
  })

  it.each([undefined, '', 'soon', '-1', '1.5', '1e3', 'Mon, 99 Foo 2030'])('reads %j as absent', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined()
  })
})
