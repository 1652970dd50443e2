import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { canonicalAddress, isLoopbackAddress, LOOPBACK_NAMES } from '#shared/http-address.ts'
import type { SyncKind } from '#shared/sync/ports.ts'

/**
 * Where `push` keeps a destination's journal when `--journal` names none: in the app's data folder
 * (`appDataDir`: where the app keeps its own record of what it sent, and CATALOG_DESK_DATA_DIR
 * moves both), one file a destination and kind:
 * `push-journals/<host>[_<port>][_<path>].<skus|apps>.jsonl`.
 *
 * Not beside the input file, as earlier versions kept it: a journal per destination must be found
 * whatever file is pushed there, from whatever folder (an edited copy saved elsewhere would
 * otherwise create every SKU a second time). The name is for people; what the journal is for is its
 * header's address, checked on open: two addresses that would share a name (one by http, one by
 * https on this computer) are told apart there, and the second is refused with a message.
 */
export function defaultJournalPath(dataDir: string, baseUrl: string, kind: SyncKind): string {
  return join(dataDir, 'push-journals', `${destinationName(baseUrl)}.${kind}.jsonl`)
}

/** The address as a file name: host, port and path, every character a file name may not hold as `_`. */
export function destinationName(baseUrl: string): string {
  const url = URL.parse(baseUrl)
  const parts = url ? [url.hostname, url.port, ...url.pathname.split('/')] : [baseUrl]
  return parts
    .filter((part) => part !== '')
    .join('_')
    .replace(/[^A-Za-z0-9.-]/g, '_')
}

/**
 * The files in `dataDir` that would be the journals of this address's scheme, port and path under
 * this computer's other names ("http://127.0.0.1:4010" for "http://localhost:4010"): the same
 * service, most likely, though not surely (a name may lead to another listener), so they are never
 * read as this address's journal unless the person names one. A file's name leaves the scheme out:
 * its header says whose journal it is (push-journal.ts reads it).
 */
export function loopbackJournals(
  dataDir: string,
  baseUrl: string,
  kind: SyncKind,
): Array<{ baseUrl: string; path: string }> {
  if (!isLoopbackAddress(baseUrl)) return []
  const url = new URL(baseUrl)
  return LOOPBACK_NAMES.filter((name) => name !== url.hostname)
    .map((name) => {
      const other = new URL(url)
      other.hostname = name
      const address = canonicalAddress(other.href)
      return { baseUrl: address, path: defaultJournalPath(dataDir, address, kind) }
    })
    .filter(({ path }) => existsSync(path))
}
