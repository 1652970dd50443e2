import {
  appendFileSync,
  closeSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  truncateSync,
  writeSync,
} from 'node:fs'

/**
 * A journal's file: JSON lines, each appended whole, read back as they were written. What the
 * journal records is journal.ts's; this is how it stays sound on disk whatever happens to the
 * process or the machine:
 *
 * - The first line (the header) is read and checked before anything else in the file is read or
 *   changed: a file that is not a journal (`--journal notes.txt`) is refused as it is, never
 *   repaired or appended to. Only an empty or missing file becomes a new journal.
 * - Every line is appended whole with its newline, so only the last one can be torn (a crash
 *   mid-write): a torn last line is cut off before anything is appended (glued to the next line, it
 *   would turn that one into one more torn line), and a whole one missing its newline is ended.
 *   Anything unreadable before the last line is damage, and refused.
 * - A line may be flushed to disk (fdatasync) before `append` returns: a request's start is, so no
 *   crash can lose the mark that makes a resend impossible.
 * - A write that takes fewer bytes than given (a nearly full disk) is continued until the line is
 *   whole; a line that cannot be completed throws, and is cut off again so no later line is glued
 *   to it.
 *
 * The file is read as a stream of lines (a journal that records every SKU sent to a destination
 * may hold hundreds of megabytes of payloads), and a line can be read again later by its offset:
 * the journal keeps where a payload is, not the payload.
 */

/** The file is not a journal this push can use; the message says which and what to do. */
export class JournalMismatchError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JournalMismatchError'
  }
}

/** Writes bytes and returns how many it wrote, as `fs.writeSync` (the default); tests pass one that writes less. */
export type JournalWrite = (fd: number, buffer: Uint8Array, offset: number, length: number) => number

const writeBytes: JournalWrite = (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length)

const CHUNK_BYTES = 1024 * 1024
const NEWLINE = 0x0a

/** What reading found: how much of the file to keep, and whether its last line needs its newline. */
export interface JournalRead {
  /** False when there is no file, or an empty one: a new journal. */
  existed: boolean
  /** Bytes to keep: everything but a torn last line. */
  keep: number
  /** The last line is whole but has no newline. */
  end: boolean
  size: number
}

/**
 * Reads the journal at `path` line by line. `onLine` gets each whole line's value, the offset it
 * starts at and its number (from 0, the header), the header first, before anything else is read;
 * it throws to refuse the file. A first line that is not JSON refuses the file too. Blank lines
 * after the header are skipped.
 */
export function readJournalLines(
  path: string,
  onLine: (value: unknown, offset: number, number: number) => void,
): JournalRead {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { existed: false, keep: 0, end: false, size: 0 }
    throw error
  }
  try {
    const size = fstatSync(fd).size
    if (size === 0) return { existed: false, keep: 0, end: false, size: 0 }
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
    let pending: Buffer[] = []
    let lineStart = 0
    let number = 0
    let position = 0

    const whole = (text: string, offset: number) => {
      const at = number++
      if (at === 0) {
        onLine(parseFirst(text, path, true), offset, 0)
        return
      }
      if (text.trim() === '') return
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch (error) {
        throw new JournalMismatchError(`${path} is damaged at line ${at + 1}: ${(error as Error).message}`)
      }
      onLine(value, offset, at)
    }

    while (position < size) {
      const read = readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, size - position), position)
      if (read === 0) break
      const view = chunk.subarray(0, read)
      let from = 0
      for (let newline = view.indexOf(NEWLINE, from); newline !== -1; newline = view.indexOf(NEWLINE, from)) {
        const piece = view.subarray(from, newline)
        const text = (pending.length > 0 ? Buffer.concat([...pending, piece]) : piece).toString('utf8')
        pending = []
        whole(text, lineStart)
        lineStart = position + newline + 1
        from = newline + 1
      }
      if (from < read) pending.push(Buffer.from(view.subarray(from)))
      position += read
    }

    const tail = Buffer.concat(pending).toString('utf8')
    if (number === 0) {
      // No newline at all: the header alone, not yet ended, or no journal.
      onLine(parseFirst(tail, path, false), 0, 0)
      return { existed: true, keep: size, end: true, size }
    }
    if (tail.trim() === '') return { existed: true, keep: lineStart, end: false, size }
    let value: unknown
    try {
      value = JSON.parse(tail)
    } catch {
      // Torn: cut off (a `begin` that never reached the disk whole was never sent).
      return { existed: true, keep: lineStart, end: false, size }
    }
    onLine(value, lineStart, number)
    return { existed: true, keep: size, end: true, size }
  } finally {
    closeSync(fd)
  }
}

function parseFirst(text: string, path: string, ended: boolean): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new JournalMismatchError(
      ended
        ? `${path} is not a push journal: its first line is not a journal header, and it is left as it is. Name another --journal (an empty or missing file becomes a new one).`
        : `${path} is not a push journal: it holds no whole journal line (a journal starts with a header line), and it is left as it is. Name another --journal (an empty or missing file becomes a new one).`,
    )
  }
}

/** Cuts a torn line off, or ends a whole last line; in place, so no crash can lose what was kept. */
export function repairJournal(path: string, read: JournalRead): void {
  if (read.keep < read.size) truncateSync(path, read.keep)
  else if (read.end) appendFileSync(path, '\n')
}

/** A journal's file open for appending lines and reading them back. */
export interface JournalAppender {
  /** The file's length: where the next line starts. */
  readonly size: number
  /**
   * Appends `line` as one line of JSON and returns its offset; flushed to disk before it returns
   * unless `flush` is false (then it is flushed with the next line that is, or on close).
   */
  append(line: unknown, options?: { flush?: boolean }): number
  /** The line starting at `offset`, parsed (a few recent ones are kept: a batch's payloads share one). */
  lineAt(offset: number): unknown
  close(): void
}

/** Lines read again: a batch's payloads share a line, and an update run reads them one SKU after another. */
const LINES_KEPT = 4

export function openJournalAppender(path: string, write: JournalWrite = writeBytes): JournalAppender {
  const fd = openSync(path, 'a+')
  let size: number
  try {
    size = fstatSync(fd).size
  } catch (error) {
    closeSync(fd)
    throw error
  }
  /** Set when a torn line could not be cut off: nothing more may be appended after it. */
  let broken: Error | undefined
  const lineAt = recentLines((offset) => readLineAt(fd, size, offset))

  return {
    get size() {
      return size
    },

    /**
     * Synchronous on purpose: a line is whole in the file before anything else runs, so lines of
     * concurrent requests never interleave, and a write and a flush cost tens of microseconds here
     * against a thread-pool round trip each with the promise API (a third of the engine's time in
     * the benchmark).
     */
    append(line, { flush = true } = {}) {
      if (broken) throw broken
      const bytes = Buffer.from(JSON.stringify(line) + '\n')
      let written = 0
      try {
        while (written < bytes.length) {
          const wrote = write(fd, bytes, written, bytes.length - written)
          if (!Number.isInteger(wrote) || wrote <= 0) {
            throw new Error(
              `the journal ${path} took ${written} of a line's ${bytes.length} bytes and no more (is the disk full?)`,
            )
          }
          written += wrote
        }
      } catch (error) {
        if (written > 0) {
          try {
            ftruncateSync(fd, size)
          } catch (cutError) {
            broken = new Error(
              `the journal ${path} ends in a line that could not be written whole nor cut off (${(cutError as Error).message}); nothing more is sent`,
            )
          }
        }
        throw error
      }
      const offset = size
      size += bytes.length
      if (flush) fdatasyncSync(fd)
      return offset
    },

    lineAt,

    close() {
      try {
        fdatasyncSync(fd)
      } finally {
        closeSync(fd)
      }
    },
  }
}

/** `read`, with the last few lines it read kept (LINES_KEPT). */
function recentLines(read: (offset: number) => unknown): (offset: number) => unknown {
  const kept = new Map<number, unknown>()
  return (offset) => {
    if (kept.has(offset)) return kept.get(offset)
    const line = read(offset)
    if (kept.size >= LINES_KEPT) kept.delete(kept.keys().next().value!)
    kept.set(offset, line)
    return line
  }
}

/** The line of the file open as `fd` (of `size` bytes) that starts at `offset`, parsed. */
function readLineAt(fd: number, size: number, offset: number): unknown {
  const parts: Buffer[] = []
  const chunk = Buffer.allocUnsafe(64 * 1024)
  for (let position = offset; position < size;) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position)
    if (read === 0) break
    const newline = chunk.subarray(0, read).indexOf(NEWLINE)
    if (newline !== -1) {
      parts.push(Buffer.from(chunk.subarray(0, newline)))
      break
    }
    parts.push(Buffer.from(chunk.subarray(0, read)))
    position += read
  }
  return JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown
}

/**
 * A journal's file as a dry run sees it (`push --dry-run`): read, never written, created or
 * locked. What the run would append (a recovery, a decision, a carried-over journal) is kept in
 * memory at the offsets it would have in the file, and read back from there; the rest from the
 * file. `replaced`: the run would replace the file (an earlier format's, carried over), so none of
 * it is read.
 */
export function openJournalReadOnly(path: string, { replaced = false } = {}): JournalAppender {
  let fd: number | undefined
  let fileSize = 0
  if (!replaced) {
    try {
      fd = openSync(path, 'r')
      fileSize = fstatSync(fd).size
    } catch (error) {
      if (fd !== undefined) closeSync(fd)
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      fd = undefined
    }
  }
  const appended = new Map<number, string>()
  let size = fileSize
  const fromFile = recentLines((offset) => readLineAt(fd!, fileSize, offset))
  return {
    get size() {
      return size
    },
    append(line) {
      const text = JSON.stringify(line)
      const offset = size
      appended.set(offset, text)
      size += Buffer.byteLength(text) + 1
      return offset
    },
    lineAt(offset) {
      const text = appended.get(offset)
      if (text !== undefined) return JSON.parse(text) as unknown
      if (fd === undefined || offset >= fileSize) throw new Error(`${path} has no line at ${offset}`)
      return fromFile(offset)
    },
    close() {
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    },
  }
}
