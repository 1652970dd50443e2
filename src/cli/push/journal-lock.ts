import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'

/**
 * A journal is written by one push at a time. Two at once would each read the same items as
 * queued and send them both, creating every SKU twice. The lock is a file beside the journal,
 * created only if absent (`wx`), holding the process id and host of its holder. One left by a
 * process that no longer runs (killed, the machine restarted) is taken over.
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

/** Takes the journal's lock; returns its release (once is enough). */
export function lockJournal(journalPath: string): () => void {
  const lockPath = lockPathOf(journalPath)
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx')
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() } satisfies Holder))
      } finally {
        closeSync(fd)
      }
      let held = true
      return () => {
        if (!held) return
        held = false
        unlinkSync(lockPath)
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error
    }
    const holder = readHolder(lockPath)
    if (!holder || isRunning(holder)) {
      const who = holder ? `process ${holder.pid} on ${holder.host}` : 'a lock file that cannot be read'
      throw new JournalBusyError(
        `${journalPath} is in use by another push (${who}): sending the same items twice would ` +
          `create them twice. Wait for it to end; if no push is running, delete ${lockPath}.`,
      )
    }
    // Its holder is gone: the lock is stale. Another push may take it over at the same moment;
    // then one of the two `wx` opens fails, and that one reports the other as the holder.
    unlinkSync(lockPath)
  }
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

function isRunning(holder: Holder): boolean {
  // A process on another machine (a journal on a shared drive) cannot be checked: it counts as running.
  if (holder.host !== hostname()) return true
  try {
    process.kill(holder.pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
