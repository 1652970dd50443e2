import { describe, expect, it, vi } from 'vitest'
import { parseCapacitySpec } from '#cli/capacity-spec.ts'
import { CliError } from '#cli/io.ts'
import { main } from '#cli/main.ts'
import { CapacityGate, CapacityModelError, parseCapacityModel } from '#node/sandbox/capacity.ts'
import type { Sandbox } from '#node/sandbox/server.ts'
import { eventually, postSkus, sandboxFor } from './sandbox-client.ts'

const control = (sandbox: Sandbox, init: RequestInit = {}) => fetch(`${sandbox.url}/__sandbox/capacity`, init)

async function timed(sandbox: Sandbox): Promise<{ status: number; ms: number; retryAfter: string | null }> {
  const started = performance.now()
  const response = await postSkus(sandbox)
  await response.arrayBuffer()
  return {
    status: response.status,
    ms: performance.now() - started,
    retryAfter: response.headers.get('retry-after'),
  }
}

describe('sandbox capacity model', () => {
  it('serves `slots` requests at once, each after latencyMs; one beyond them is 429 at once, unprocessed', async () => {
    const sandbox = await sandboxFor({ capacity: { latencyMs: 150, slots: 2 } })
    const answers = await Promise.all([timed(sandbox), timed(sandbox), timed(sandbox)])
    const statuses = answers.map((answer) => answer.status).sort()
    expect(statuses).toEqual([201, 201, 429])
    const served = answers.filter((answer) => answer.status === 201)
    const refused = answers.find((answer) => answer.status === 429)!
    expect(served.every((answer) => answer.ms >= 140)).toBe(true)
    expect(refused.ms).toBeLessThan(140)
    expect(refused.retryAfter).toBe('1')
    // Two batches of two stored; the refused one not at all.
    expect(sandbox.received().skus).toHaveLength(4)
    expect(sandbox.requests().filter((entry) => entry.status === 429)).toMatchObject([
      { stored: false, fault: 'over capacity (2 at once)' },
    ])
    // The slots free up once answered.
    expect((await timed(sandbox)).status).toBe(201)
  })

  it('no model: every request served at once, without delay', async () => {
    const sandbox = await sandboxFor()
    const answers = await Promise.all(Array.from({ length: 8 }, () => timed(sandbox)))
    expect(answers.every((answer) => answer.status === 201)).toBe(true)
    expect(sandbox.capacity()).toBeUndefined()
  })

  it('Retry-After follows retryAfterSeconds; fault rules act in front of the model', async () => {
    const sandbox = await sandboxFor({
      capacity: { latencyMs: 0, slots: 1, retryAfterSeconds: 3 },
      faults: [{ kind: 'server-error' }],
    })
    expect((await timed(sandbox)).status).toBe(500)
    const slow = sandbox
    slow.setCapacity({ latencyMs: 200, slots: 1, retryAfterSeconds: 3 })
    const [first, second] = await Promise.all([timed(slow), timed(slow)])
    expect([first!.status, second!.status].sort()).toEqual([201, 429])
    expect([first!.retryAfter, second!.retryAfter]).toContain('3')
  })

  it('a client that goes away frees its slot and stores nothing', async () => {
    const sandbox = await sandboxFor({ capacity: { latencyMs: 5_000, slots: 1 } })
    const controller = new AbortController()
    const gone = postSkus(sandbox, undefined, { signal: controller.signal }).catch(() => undefined)
    // Logged as pending: it holds the only slot (nothing stands between the log and the slot).
    await eventually(() => sandbox.requests()[0]?.status === 'pending')
    controller.abort()
    await gone
    sandbox.setCapacity({ latencyMs: 0, slots: 1 })
    // Abandoned once its slot was given back (operation.ts releases it first).
    await eventually(() => sandbox.requests()[0]?.status === 'abandoned')
    expect((await timed(sandbox)).status).toBe(201)
    expect(sandbox.received().skus).toHaveLength(2)
  })

  it('the control endpoint sets, shows and turns off the model; refuses an invalid one with 400', async () => {
    const sandbox = await sandboxFor()
    expect(await (await control(sandbox)).json()).toEqual({ capacity: null })
    const set = await control(sandbox, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 2800, slots: 4 }),
    })
    expect(set.status).toBe(200)
    expect(await set.json()).toEqual({ capacity: { latencyMs: 2800, slots: 4 } })
    expect(sandbox.capacity()).toEqual({ latencyMs: 2800, slots: 4 })
    const bad = await control(sandbox, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: -1, slots: 0 }),
    })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { errors: { path: string }[] }).errors.map((e) => e.path).sort()).toEqual([
      'latencyMs',
      'slots',
    ])
    expect(sandbox.capacity()).toEqual({ latencyMs: 2800, slots: 4 })
    expect((await control(sandbox, { method: 'DELETE' })).status).toBe(204)
    expect(sandbox.capacity()).toBeUndefined()
  })

  it('the gate counts slots and releases each once', () => {
    const gate = new CapacityGate({ latencyMs: 10, slots: 1 })
    const slot = gate.enter()
    expect(slot).toMatchObject({ latencyMs: 10 })
    expect(gate.enter()).toBe('full')
    if (typeof slot === 'object') {
      slot.release()
      slot.release()
    }
    expect(gate.inUse).toBe(0)
    expect(() => parseCapacityModel({ latencyMs: 1, slots: 1, extra: 1 })).toThrow(CapacityModelError)
    expect(new CapacityGate().enter()).toBeUndefined()
  })
})

describe('--capacity', () => {
  it('reads slots=N:latency=MS[:retry-after=S]', () => {
    expect(parseCapacitySpec('slots=4:latency=2800')).toEqual({ slots: 4, latencyMs: 2800 })
    expect(parseCapacitySpec('latency=0:slots=1:retry-after=2')).toEqual({
      slots: 1,
      latencyMs: 0,
      retryAfterSeconds: 2,
    })
  })

  it.each([
    ['slots=4', /slots and latency are both needed/],
    ['slots=0:latency=5', /slots: /],
    ['slots=4:latency=5:speed=2', /"speed=2" is not one of/],
    ['slots=4:latency=x', /latency must be a whole number/],
    ['slots=4:slots=5:latency=1', /slots is given twice/],
  ])('refuses %s', (spec, message) => {
    expect(() => parseCapacitySpec(spec)).toThrow(CliError)
    expect(() => parseCapacitySpec(spec)).toThrow(message)
  })

  it('the command starts the sandbox with it and says so', async () => {
    let stdout = ''
    const controller = new AbortController()
    const done = main(['sandbox', '--port', '0', '--capacity', 'slots=3:latency=20'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => undefined },
      cwd: process.cwd(),
      signal: controller.signal,
    })
    await vi.waitFor(() => expect(stdout).toContain('Stop with Ctrl-C'), { timeout: 5_000 })
    expect(stdout).toContain(
      'Capacity: 3 requests at once, 20 ms each; 429 beyond them (slots=3:latency=20:retry-after=1)\n',
    )
    const url = /Sandbox listening on (\S+)\n/.exec(stdout)![1]!
    expect(await (await fetch(`${url}/__sandbox/capacity`)).json()).toEqual({
      capacity: { slots: 3, latencyMs: 20 },
    })
    controller.abort()
    expect(await done).toBe(0)
  })
})
