import { randomBytes } from 'node:crypto'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** Replaces `file` with `value` as pretty-printed JSON, atomically (see writeTextAtomic). */
export function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  return writeTextAtomic(file, `${JSON.stringify(value, null, 2)}\n`)
}

/** Replaces `file` with one line of JSON per value (JSON Lines), atomically (see writeTextAtomic). */
export function writeJsonLinesAtomic(file: string, values: readonly unknown[]): Promise<void> {
  return writeTextAtomic(file, values.map((value) => `${JSON.stringify(value)}\n`).join(''))
}

/**
 * Replaces `file` with `text` so that a crash or power cut leaves either the old file or the new
 * one, never a half-written mix: the text goes to a temporary file in the same directory (so the
 * rename stays on one file system), is flushed to disk, then renamed over the target.
 */
async function writeTextAtomic(file: string, text: string): Promise<void> {
  const dir = dirname(file)
  await mkdir(dir, { recursive: true })
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temp, 'wx', 0o600)
  try {
    try {
      await handle.writeFile(text, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  await syncDirectory(dir)
}

/** Makes the rename itself durable. Not possible everywhere (Windows cannot open a directory): best effort. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // The file's own data is already on disk; only the directory entry may lag behind.
  }
}
