/** A promise with the function that settles it. */
function signal(): { promise: Promise<void>; settle: () => void } {
  let settle!: () => void
  const promise = new Promise<void>((resolve) => (settle = resolve))
  return { promise, settle }
}

/**
 * Main's answers a test holds back, by channel: main has done the work, and its answer has not
 * reached the page yet, as when the keychain or the disk is slow and the person moves on meanwhile.
 */
export class HeldAnswers {
  readonly #held = new Map<
    string,
    { released: ReturnType<typeof signal>; answered: ReturnType<typeof signal> }
  >()

  /** Holds every answer on `channel` from now until `release(channel)`. */
  hold(channel: string): void {
    this.#held.set(channel, { released: signal(), answered: signal() })
  }

  /** Lets the answers held on `channel` go to the page, and the next ones at once. */
  release(channel: string): void {
    this.#held.get(channel)?.released.settle()
    this.#held.delete(channel)
  }

  /** Resolves once main has answered on `channel` and the answer is held: main has done the work. */
  answered(channel: string): Promise<void> {
    const held = this.#held.get(channel)
    if (!held) throw new Error(`answers on ${channel} are not held`)
    return held.answered.promise
  }

  /** Called by the bridge with main's answer in hand: waits while answers on `channel` are held. */
  async before(channel: string): Promise<void> {
    const held = this.#held.get(channel)
    if (!held) return
    held.answered.settle()
    await held.released.promise
  }
}
