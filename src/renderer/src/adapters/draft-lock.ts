import { ifLockFree, webLocks } from './web-locks.ts'

/**
 * An editor holds a Web Lock named after the draft it shows for as long as it is open; the lock
 * goes with the page (closed, crashed, reloaded). The startup sweep of untouched new drafts
 * (stores/new-drafts.ts) leaves a draft alone while another window's editor holds its lock.
 */
const lockName = (id: string) => `catalog-desk-draft:${id}`

/** Holds the draft's lock until the returned function is called; without Web Locks, nothing. */
export function holdDraft(id: string): () => void {
  const available = webLocks()
  if (!available) return () => {}
  let release!: () => void
  const held = new Promise<void>((done) => (release = done))
  // A second editor of the same draft (another window) waits in line: nothing depends on getting it.
  void available.request(lockName(id), {}, () => held).catch(() => {})
  return release
}

/**
 * Runs `work` while holding the draft's lock, if no editor holds it; false without running it
 * otherwise. Without Web Locks, runs it.
 */
export function ifDraftFree(id: string, work: () => Promise<boolean>): Promise<boolean> {
  return ifLockFree(lockName(id), work)
}
