import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { systemClock } from '#shared/sync/system-clock.ts'

/**
 * A journal is written by one push at a time. Two at once would each read the same items as
 * queued and send them both, creating every SKU twice. The lock is a file beside the journal,
 * created only if absent (`wx`, atomic), holding the process id and host of its holder.
 *
 * One left by a process that no longer runs (killed, the machine or container restarted) is taken
 * over, under a second, short-lived guard file: two pushes finding the same stale lock would
 * otherwise both remove it, and one could remove the other's fresh lock.
 */
export class JournalBusyError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JournalBusyError'
  }
}

interface Holder {
  pid: number
  host: string
}

export const lockPathOf = (journalPath: string) => `${journalPath}.lock`
const guardPathOf = (lockPath: string) => `${lockPath}.takeover`
/** A guard this old was left by a push that died while taking over: it no longer guards anything. */
const GUARD_STALE_MS = 10_000

/** Locks this process holds: a lock naming this process and not in here is a former run's. */
const heldHere = new Set<string>()

/** Takes the journal's lock; returns its release (once is enough; it never throws). */
export function lockJournal(journalPath: string): () => void {
  const lockPath = lockPathOf(journalPath)
  if (!createLock(lockPath)) {
    const holder = readHolder(lockPath)
    if (!holder || isRunning(holder, lockPath)) throw busy(journalPath, lockPath, holder)
    takeOver(journalPath, lockPath, holder)
  }
  heldHere.add(lockPath)
  let held = true
  return () => {
    if (!held) return
    held = false
    heldHere.delete(lockPath)
    // Only our own lock goes. One deleted by hand (as the busy message allows) is no failure, and
    // one that cannot be deleted names a process that will have ended: the next push takes it over.
    try {
      const holder = readHolder(lockPath)
      if (holder?.pid === process.pid && holder.host === hostname()) unlinkQuietly(lockPath)
    } catch {
      // Left for the next push to take over.
    }
  }
}

/** Creates the lock file naming this process; false when one is there already. */
function createLock(lockPath: string): boolean {
  let fd: number
  try {
    fd = openSync(lockPath, 'wx')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() } satisfies Holder))
  } catch (error) {
    // An empty lock would read as held by nobody knows whom, until deleted by hand.
    closeSync(fd)
    unlinkQuietly(lockPath)
    throw error
  }
  closeSync(fd)
  return true
}

function takeOver(journalPath: string, lockPath: string, stale: Holder): void {
  const guardPath = guardPathOf(lockPath)
  if (!createGuard(guardPath)) throw busy(journalPath, lockPath, stale, 'taking over its lock')
  try {
    // Read again under the guard: another push may have taken over since.
    const holder = readHolder(lockPath)
    if (holder && (holder.pid !== stale.pid || holder.host !== stale.host)) {
      throw busy(journalPath, lockPath, holder)
    }
    if (holder) unlinkQuietly(lockPath)
    if (!createLock(lockPath)) throw busy(journalPath, lockPath, readHolder(lockPath))
  } finally {
    unlinkQuietly(guardPath)
  }
}

function createGuard(guardPath: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(guardPath, 'wx'))
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const now = systemClock.now()
    const age = now - (statSync(guardPath, { throwIfNoEntry: false })?.mtimeMs ?? now)
    if (age < GUARD_STALE_MS) return false
    unlinkQuietly(guardPath)
  }
  return false
}

function busy(journalPath: string, lockPath: string, holder: Holder | undefined, doing = 'using it'): Error {
  const who = holder ? `process ${holder.pid} on ${holder.host}` : 'a lock file that cannot be read'
  return new JournalBusyError(
    `${journalPath} is in use by another push (${who}; it is ${doing}): sending the same items ` +
      `twice would create them twice. Wait for it to end; if no push is running, delete ${lockPath}.`,
  )
}

/** The lock's holder; undefined when the file cannot be read (half-written, say): then it counts as held. */
function readHolder(lockPath: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<Holder>
    return Number.isInteger(holder.pid) && typeof holder.host === 'string'
      ? { pid: holder.pid!, host: holder.host }
      : undefined
  } catch {
    return undefined
  }
}

function isRunning(holder: Holder, lockPath: string): boolean {
  // A process on another machine (a journal on a shared drive) cannot be checked: it counts as running.
  if (holder.host !== hostname()) return true
  // This process's own id: held by this run, or left by a former one that had the same id (a
  // restarted container's process 1, say).
  if (holder.pid === process.pid) return heldHere.has(lockPath)
  try {
    process.kill(holder.pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}
