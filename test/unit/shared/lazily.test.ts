import { describe, expect, it, vi } from 'vitest'
import { lazily } from '#shared/lazily.ts'

describe('lazily', () => {
  it('builds nothing until first asked, then once, and gives the same value every time', () => {
    const build = vi.fn(() => ({ built: true }))
    const value = lazily(build)
    expect(build).not.toHaveBeenCalled()
    const first = value()
    expect(value()).toBe(first)
    expect(build).toHaveBeenCalledTimes(1)
  })

  it('keeps a built undefined too, rather than building again', () => {
    const build = vi.fn((): undefined => undefined)
    const value = lazily(build)
    value()
    value()
    expect(build).toHaveBeenCalledTimes(1)
  })
})
