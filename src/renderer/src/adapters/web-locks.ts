/** The little of the Web Locks API the page uses (`navigator.locks`: one lock per run, per open editor). */
type Locks = {
  request(
    name: string,
    options: { ifAvailable?: boolean },
    callback: (lock: unknown) => Promise<unknown>,
  ): Promise<unknown>
}

/** The page's Web Locks; undefined where there are none (Node, in unit tests). */
export function webLocks(): Locks | undefined {
  return (globalThis.navigator as (Navigator & { locks?: Locks }) | undefined)?.locks
}

/**
 * Runs `work` holding the lock `name` if nobody holds it, and gives what it returned; false,
 * without running it, when the lock is held. Without Web Locks, runs it.
 */
export async function ifLockFree(name: string, work: () => Promise<boolean>): Promise<boolean> {
  const available = webLocks()
  if (!available) return work()
  return (await available.request(name, { ifAvailable: true }, async (lock) =>
    lock ? work() : false,
  )) as boolean
}
