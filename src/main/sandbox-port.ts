import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeJsonAtomic } from '#node/atomic-json.ts'
import { isRecord } from '#shared/is-record.ts'

/**
 * The embedded sandbox's port, kept from one start to the next. Its address is a place: profiles
 * point at it and tokens are bound to it, so the sandbox asks for the same port at every start.
 * A file of its own rather than a preference: nobody chooses it, and it is rewritten only when
 * the port changes.
 */
export const SANDBOX_PORT_FILE_NAME = 'sandbox-port.json'

/**
 * The port the sandbox listened on last time. Undefined at the first start, and for a file that
 * cannot be read or holds something else: the sandbox then takes a free port, and a damaged file
 * never stops it.
 */
export async function readSandboxPort(dataDir: string): Promise<number | undefined> {
  let stored: unknown
  try {
    stored = JSON.parse(await readFile(join(dataDir, SANDBOX_PORT_FILE_NAME), 'utf8'))
  } catch {
    return undefined
  }
  const port = isRecord(stored) ? stored.port : undefined
  return typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65_535 ? port : undefined
}

/** Keeps `port` for the next start; written atomically, so a crash leaves the old port or the new one. */
export function rememberSandboxPort(dataDir: string, port: number): Promise<void> {
  return writeJsonAtomic(join(dataDir, SANDBOX_PORT_FILE_NAME), { format: 1, port })
}
