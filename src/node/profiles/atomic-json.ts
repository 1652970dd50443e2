import { randomBytes } from 'node:crypto'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Replaces `file` with `value` as JSON so that a crash or power cut leaves either the old file or the
 * new one, never a half-written mix: the data goes to a temporary file in the same directory (so the
 * rename stays on one file system), is flushed to disk, then renamed over the target.
 */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  const dir = dirname(file)
  await mkdir(dir, { recursive: true })
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temp, 'wx', 0o600)
  try {
    try {
      await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`, 'utf8')
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
