import type { OutboxItem } from './ports.ts'

/**
 * Batches the engine took from the outbox and must send again: the halves of a split batch, or a
 * batch that came back because the run paused. Their items are `queued` in the outbox (they were
 * provably not processed), but the read cursor is already past them, so no slot reads them again;
 * only this list hands them out, lowest position first, and always before anything new is read.
 * After a crash the list is gone and the items simply resume as queued.
 */
export class HeldBatches {
  #batches: OutboxItem[][] = []

  add(...batches: OutboxItem[][]): void {
    for (const batch of batches) {
      if (batch.length === 0) continue
      const first = batch[0]!.position
      const at = this.#batches.findIndex((held) => held[0]!.position > first)
      if (at < 0) this.#batches.push(batch)
      else this.#batches.splice(at, 0, batch)
    }
  }

  take(): OutboxItem[] | undefined {
    return this.#batches.shift()
  }
}
