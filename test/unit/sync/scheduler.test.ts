import { describe, expect, it } from 'vitest'
import { createChangeSignal } from '#shared/sync/change-signal.ts'
import { fixedConcurrency } from '#shared/sync/concurrency.ts'
import { createRunLifecycle } from '#shared/sync/run-lifecycle.ts'
import { createScheduler } from '#shared/sync/scheduler.ts'
import type { OutboxItem } from '#shared/sync/ports.ts'
import { createMemoryOutbox, deferred, drained, skuItems, until } from './engine-harness.ts'

/** A scheduler over a memory outbox whose `send` records each batch and settles when told. */
function schedulerWith({ items = 7, batchSize = 3, limit = 1 } = {}) {
  const outbox = createMemoryOutbox(skuItems(items))
  const signal = createChangeSignal()
  /** How many times a slot has waited for a change: a slot waiting has taken no work. */
  let waits = 0
  const changed = {
    next: () => {
      waits += 1
      return signal.next()
    },
    notify: () => signal.notify(),
  }
  const lifecycle = createRunLifecycle({ changed, log: () => {}, onStatus: () => {} })
  const sent: string[][] = []
  let inFlight = 0
  let most = 0
  const gates: Array<() => void> = []
  const scheduler = createScheduler({
    outbox,
    controller: fixedConcurrency(limit),
    lifecycle,
    changed,
    batchSize,
    send: async (batch: OutboxItem[]) => {
      sent.push(batch.map((item) => item.label))
      inFlight += 1
      most = Math.max(most, inFlight)
      const gate = deferred<void>()
      gates.push(gate.resolve)
      await gate.promise
      inFlight -= 1
    },
  })
  const release = async () => {
    await until(() => gates.length > 0, 'a batch being sent')
    gates.shift()!()
  }
  return {
    scheduler,
    lifecycle,
    sent,
    release,
    outbox,
    get most() {
      return most
    },
    get waits() {
      return waits
    },
  }
}

describe('the scheduler', () => {
  it('streams the queued items in position order, a batch of the run’s size at a time, and ends when none is left', async () => {
    const setup = schedulerWith()
    const done = setup.scheduler.runSlots(3)
    for (let batch = 0; batch < 3; batch++) await setup.release()
    await done
    expect(setup.sent).toEqual([['B0', 'B1', 'B2'], ['B3', 'B4', 'B5'], ['B6']])
    // Three slots, one permit: never two requests at once.
    expect(setup.most).toBe(1)
  })

  it('sends a held batch before reading on, and waits with work in flight rather than ending', async () => {
    const setup = schedulerWith({ items: 6, batchSize: 3 })
    const done = setup.scheduler.runSlots(1)
    await until(() => setup.sent.length === 1)
    // While the first batch is out, its halves are held back (as a refusal's split would).
    const [b0, b1] = setup.outbox.items()
    setup.scheduler.held.add([b0!], [b1!])
    await setup.release()
    await setup.release()
    await setup.release()
    await setup.release()
    await done
    expect(setup.sent).toEqual([['B0', 'B1', 'B2'], ['B0'], ['B1'], ['B3', 'B4', 'B5']])
  })

  it('takes no work while the run holds requests, and none once it is cancelled', async () => {
    const setup = schedulerWith()
    setup.lifecycle.pause('requested', 'paused')
    const done = setup.scheduler.runSlots(2)
    // Both slots looked, found the run holding requests, and wait for a change.
    await until(() => setup.waits >= 2, 'both slots waiting')
    expect(setup.sent).toEqual([])
    setup.lifecycle.cancel()
    await done
    expect(setup.sent).toEqual([])
  })

  it('queues what a decision put back behind the read cursor as held batches, lowest first', async () => {
    const setup = schedulerWith({ items: 4, batchSize: 2 })
    const done = setup.scheduler.runSlots(1)
    await setup.release()
    await setup.release()
    await done
    const items = setup.outbox.items()
    setup.scheduler.requeue([items[3]!, items[0]!, items[1]!])
    expect(setup.scheduler.held.take()?.map((item) => item.label)).toEqual(['B0', 'B1'])
    expect(setup.scheduler.held.take()?.map((item) => item.label)).toEqual(['B3'])
  })

  it('runs a decision between two reads, never during one', async () => {
    const setup = schedulerWith()
    const order: string[] = []
    const reading = deferred<void>()
    const read = setup.scheduler.inTurn(async () => {
      order.push('read starts')
      await reading.promise
      order.push('read ends')
    })
    const decision = setup.scheduler.inTurn(async () => order.push('decision'))
    await drained()
    expect(order).toEqual(['read starts'])
    reading.resolve()
    await Promise.all([read, decision])
    expect(order).toEqual(['read starts', 'read ends', 'decision'])
  })
})
