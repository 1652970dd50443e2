import { join } from 'node:path'
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
