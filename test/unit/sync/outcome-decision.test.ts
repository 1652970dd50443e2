import { describe, expect, it } from 'vitest'
import type { Outcome, OutcomeKind } from '#shared/service/outcome.ts'
import { draftKind, SKU_KIND } from '#shared/sync/kinds.ts'
import { decideOutcome, type DecisionContext } from '#shared/sync/outcome-decision.ts'
import type { OutboxItem, SyncKind } from '#shared/sync/ports.ts'

// The outcome table of the architecture guide, row by row: what one request's outcome does to
// its batch (the items' new states, what is held to send again) and to the run (pause, stop, end).

function items(count: number): OutboxItem[] {
  return Array.from({ length: count }, (_, index) => ({
    key: `k${index}`,
    position: index,
    payload: { barcode: `89010000000${index}` },
    label: `89010000000${index}`,
  }))
}

function outcome(kind: OutcomeKind, extra: Partial<Outcome> = {}): Outcome {
  const processed = kind === 'created' ? 'yes' : ['failed', 'unknown'].includes(kind) ? 'maybe' : 'no'
  return { kind, processed, message: `The service said ${kind}.`, durationMs: 5, ...extra } as Outcome
}

interface Row {
  kind: OutcomeKind
  batch: number
  context?: Partial<DecisionContext>
  /** The condition in the test's title. */
  when?: string
  /** The action written with the request, or none when nothing is written. */
  action: string | null
  /** Each item's new state. */
  states: string[]
  /** Sizes of the batches held to send again. */
  hold: number[]
  pause?: string
  stop?: true
  end?: true
}

const TABLE: Row[] = [
  { kind: 'created', batch: 3, action: 'synced', states: ['synced', 'synced', 'synced'], hold: [] },
  { kind: 'rejected', batch: 1, action: 'rejected', states: ['rejected'], hold: [] },
  {
    kind: 'rejected',
    batch: 4,
    action: 'split into 2 + 2',
    states: ['queued', 'queued', 'queued', 'queued'],
    hold: [2, 2],
  },
  { kind: 'too-large', batch: 1, action: 'rejected', states: ['rejected'], hold: [] },
  {
    kind: 'too-large',
    batch: 5,
    action: 'split into 3 + 2',
    states: ['queued', 'queued', 'queued', 'queued', 'queued'],
    hold: [3, 2],
  },
  { kind: 'retry-later', batch: 2, action: null, states: [], hold: [2], pause: 'busy' },
  { kind: 'unreachable', batch: 2, action: null, states: [], hold: [2], pause: 'offline' },
  {
    kind: 'unreachable',
    batch: 2,
    context: { canWaitForNetwork: false },
    when: ' (no way to wait for the network)',
    action: null,
    states: [],
    hold: [2],
    pause: 'offline',
    end: true,
  },
  {
    kind: 'retry-later',
    batch: 2,
    context: { haltedMeanwhile: true },
    when: ' (the run halted meanwhile)',
    action: null,
    states: [],
    hold: [2],
  },
  {
    kind: 'unreachable',
    batch: 2,
    context: { haltedMeanwhile: true },
    when: ' (the run halted meanwhile)',
    action: null,
    states: [],
    hold: [2],
  },
  {
    kind: 'needs-token',
    batch: 2,
    action: 'paused: token needed',
    states: ['queued', 'queued'],
    hold: [2],
    pause: 'needs-token',
  },
  {
    kind: 'wrong-address',
    batch: 2,
    action: 'stopped: wrong address',
    states: ['failed', 'failed'],
    hold: [],
    stop: true,
  },
  {
    kind: 'created',
    batch: 1,
    context: { action: 'update' },
    when: ' (an update)',
    action: 'updated',
    states: ['synced'],
    hold: [],
  },
  {
    kind: 'not-found',
    batch: 1,
    context: { action: 'update' },
    when: ' (an update)',
    action: 'not on the platform',
    states: ['rejected'],
    hold: [],
  },
  { kind: 'failed', batch: 2, action: 'failed', states: ['failed', 'failed'], hold: [] },
  { kind: 'unknown', batch: 2, action: 'unknown', states: ['unknown', 'unknown'], hold: [] },
]

const ROWS = TABLE.map((row) => ({ when: '', written: row.action ?? 'nothing written', ...row }))

describe('decideOutcome: the outcome table', () => {
  it.each(ROWS)('$kind for $batch item(s)$when: $written', (row) => {
    const batch = items(row.batch)
    const decision = decideOutcome(batch, outcome(row.kind), {
      kind: SKU_KIND,
      action: 'create',
      haltedMeanwhile: false,
      canWaitForNetwork: true,
      ...row.context,
    })
    expect(decision.write?.action ?? null).toBe(row.action)
    expect(decision.write?.updates.map((update) => update.state) ?? []).toEqual(row.states)
    expect(decision.write?.updates.map((update) => update.key) ?? []).toEqual(
      row.states.length ? batch.map((item) => item.key) : [],
    )
    expect(decision.hold.map((held) => held.length)).toEqual(row.hold)
    // Held batches hold exactly the batch's items, each once.
    expect(
      decision.hold
        .flat()
        .map((item) => item.key)
        .sort(),
    ).toEqual(row.hold.length ? batch.map((item) => item.key).sort() : [])
    expect(decision.pause).toBe(row.pause)
    expect(decision.stop).toBe(row.stop)
    expect(decision.end).toBe(row.end)
  })

  it('gives a refused lone item the service words and its problems, without the batch prefix', () => {
    const decision = decideOutcome(
      items(1),
      outcome('rejected', {
        serviceMessage: 'Validation failed',
        problems: [{ path: 'skus.0.barcode', message: 'is already taken' }],
      }),
      { kind: SKU_KIND, action: 'create', haltedMeanwhile: false, canWaitForNetwork: true },
    )
    expect(decision.write?.updates).toEqual([
      { key: 'k0', state: 'rejected', message: 'Validation failed (barcode: is already taken)' },
    ])
    expect(decision.log).toBe('SKU 890100000000: refused: Validation failed (barcode: is already taken)')
  })

  it('sends the items a refusal names alone, and the others together', () => {
    const decision = decideOutcome(
      items(5),
      outcome('rejected', { problems: [{ path: 'skus.3.name', message: 'required' }] }),
      { kind: SKU_KIND, action: 'create', haltedMeanwhile: false, canWaitForNetwork: true },
    )
    expect(decision.hold.map((held) => held.map((item) => item.key))).toEqual([
      ['k0', 'k1', 'k2', 'k4'],
      ['k3'],
    ])
    expect(decision.log).toMatch(/refused; sending it again as 4 \+ 1 to find the SKUs it refuses\.$/)
  })

  it.each<[SyncKind, string, object]>([
    ['skus', 'SKU 890100000000: accepted.', { key: 'k0', state: 'synced' }],
    ['apps', 'App "890100000000": accepted.', { key: 'k0', state: 'synced', remoteId: 'a1' }],
  ])('a created %s is synced and named in the log', (kind, log, update) => {
    const decision = decideOutcome(items(1), outcome('created', { body: { app: { _id: 'a1' } } }), {
      kind: draftKind(kind),
      action: 'create',
      haltedMeanwhile: false,
      canWaitForNetwork: true,
    })
    expect(decision.log).toBe(log)
    expect(decision.write?.updates[0]).toMatchObject(update)
  })
})

describe("an update's outcome", () => {
  it('marks a SKU the service says is not there as gone, in its words', () => {
    const decision = decideOutcome(items(1), outcome('not-found', { message: 'The SKU is not there.' }), {
      kind: SKU_KIND,
      action: 'update',
      haltedMeanwhile: false,
      canWaitForNetwork: true,
    })
    expect(decision.write?.updates).toEqual([
      { key: 'k0', state: 'rejected', message: 'The SKU is not there.', gone: true },
    ])
    expect(decision.log).toBe('SKU 890100000000: not on the platform any more: The SKU is not there.')
  })

  it("never reads ids from an update's answer: what it updated keeps the id it was sent to", () => {
    const decision = decideOutcome(
      items(1),
      outcome('created', { body: { skus: [{ _id: 'other', barcode: '890100000000' }] } }),
      { kind: SKU_KIND, action: 'update', haltedMeanwhile: false, canWaitForNetwork: true },
    )
    expect(decision.write?.updates).toEqual([{ key: 'k0', state: 'synced' }])
  })
})
