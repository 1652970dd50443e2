import { ifLockFree, webLocks } from './web-locks.ts'

/**
 * A run is sent by one page at a time. The page sending it holds a Web Lock named after it for as
 * long as the engine runs; the lock goes with the page (closed, crashed, reloaded). Another page
 * only recovers a run (its `sending` items become `unknown`) when nobody holds that lock.
 */
const lockName = (runId: string) => `catalog-desk-sync-run:${runId}`

/** Holds the run's lock until `work` ends; without Web Locks, just runs it. */
export async function holdingRun<T>(runId: string, work: () => Promise<T>): Promise<T> {
  const available = webLocks()
  if (!available) return work()
  return (await available.request(lockName(runId), {}, () => work())) as T
}

/** Runs `work` if no page is sending the run; says whether it ran. */
export function ifRunIdle(runId: string, work: () => Promise<void>): Promise<boolean> {
  return ifLockFree(lockName(runId), async () => {
    await work()
    return true
  })
}
