import { describe, expect, it } from 'vitest'
import { FaultBook, FaultRuleError, parseFaultRules, seededRandom } from '#node/sandbox/faults.ts'
import type { FaultRule } from '#node/sandbox/options.ts'
import { postSkus, sandboxFor } from './sandbox-client.ts'

/** Fault rules that apply by chance, from a seeded random: soak runs meet faults, reproducibly. */

function draws(book: FaultBook, count: number): (string | null)[] {
  return Array.from({ length: count }, () => book.take('skus')?.kind ?? null)
}

describe('fault rules with a rate', () => {
  it('apply to about that share of requests, forever unless times says otherwise', () => {
    const book = new FaultBook(seededRandom(7))
    book.add([{ kind: 'server-error', rate: 0.2 }])
    const taken = draws(book, 2_000).filter(Boolean).length
    expect(taken).toBeGreaterThan(320)
    expect(taken).toBeLessThan(480)
    expect(book.list()).toEqual([{ rule: { kind: 'server-error', rate: 0.2 }, remaining: null }])
  })

  it('the same seed gives the same faults; another seed others', () => {
    const rules: FaultRule[] = [
      { kind: 'rate-limit', rate: 0.1 },
      { kind: 'reset', stage: 'after', rate: 0.1 },
    ]
    const run = (seed: number) => {
      const book = new FaultBook(seededRandom(seed))
      book.add(rules)
      return draws(book, 300)
    }
    expect(run(3)).toEqual(run(3))
    expect(run(3)).not.toEqual(run(4))
    expect(new Set(run(3))).toEqual(new Set([null, 'rate-limit', 'reset']))
  })

  it('a request a rate rule spares goes on to the next rule; times still bounds it', () => {
    const book = new FaultBook(() => 0.9)
    book.add([
      { kind: 'server-error', rate: 0.5 },
      { kind: 'bad-gateway', times: 2 },
    ])
    expect(draws(book, 3)).toEqual(['bad-gateway', 'bad-gateway', null])
    const bounded = new FaultBook(() => 0)
    bounded.add([{ kind: 'server-error', rate: 0.5, times: 2 }])
    expect(draws(bounded, 3)).toEqual(['server-error', 'server-error', null])
  })

  it('a rate must be above 0 and at most 1', () => {
    expect(() => parseFaultRules({ kind: 'reset', rate: 0 })).toThrow(FaultRuleError)
    expect(() => parseFaultRules({ kind: 'reset', rate: 1.5 })).toThrow(FaultRuleError)
    expect(parseFaultRules({ kind: 'reset', rate: 1 })).toEqual([{ kind: 'reset', rate: 1 }])
  })

  it('over HTTP: the seeded sandbox answers the same statuses run after run', async () => {
    const statuses = async (seed: number) => {
      const sandbox = await sandboxFor({ faultSeed: seed, faults: [{ kind: 'server-error', rate: 0.3 }] })
      const seen: number[] = []
      for (let i = 0; i < 30; i++) {
        const response = await postSkus(sandbox)
        await response.arrayBuffer()
        seen.push(response.status)
      }
      expect(
        sandbox.requests().filter((entry) => entry.fault === 'server-error:before:rate=0.3'),
      ).toHaveLength(seen.filter((status) => status === 500).length)
      return seen
    }
    const first = await statuses(11)
    expect(first).toContain(500)
    expect(first).toContain(201)
    expect(await statuses(11)).toEqual(first)
  })
})

describe('--fault with rate=', () => {
  it('reads a fraction and refuses anything else', async () => {
    const { parseFaultSpec } = await import('#cli/fault-spec.ts')
    expect(parseFaultSpec('server-error:rate=0.2')).toEqual({ kind: 'server-error', rate: 0.2 })
    expect(parseFaultSpec('reset:after:rate=1:times=3')).toEqual({
      kind: 'reset',
      stage: 'after',
      rate: 1,
      times: 3,
    })
    expect(() => parseFaultSpec('reset:rate=abc')).toThrow(/rate must be a number/)
    expect(() => parseFaultSpec('reset:rate=0')).toThrow(/rate/)
    expect(() => parseFaultSpec('reset:rate=2')).toThrow(/rate/)
  })
})
