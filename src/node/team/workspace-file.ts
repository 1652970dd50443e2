import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { httpAddressRule } from '#shared/http-address.ts'
import { isRecord } from '#shared/is-record.ts'
import { writeJsonAtomic } from '../atomic-json.ts'

/** The workspace a desk joined, as kept in the data folder: its address and the desk's name there. */
export interface KeptWorkspace {
  /** The database's address, without a trailing slash. */
  url: string
  /** The user the server answered for when the desk joined. */
  name: string
}

export const WORKSPACE_FILE_NAME = 'team-workspace.json'
const FORMAT = 1
/** Longer than any CouchDB user name a team would pick; a longer one is not this app's file. */
const MAX_NAME_LENGTH = 256

/**
 * The kept workspace in `<dir>/team-workspace.json`, the password never among it (the keychain
 * holds that). A file that cannot be read, or holds anything but a workspace this version would
 * join (an address it would not send to, no name), reads as no workspace: a damaged file never
 * stops the app, the desk is simply not in a team until someone joins again, and the next join
 * replaces the file.
 */
export function workspaceFile(dir: string) {
  const file = join(dir, WORKSPACE_FILE_NAME)
  return {
    file,
    async read(): Promise<KeptWorkspace | undefined> {
      let stored: unknown
      try {
        stored = JSON.parse(await readFile(file, 'utf8'))
      } catch {
        return undefined
      }
      if (!isRecord(stored) || stored.format !== FORMAT) return undefined
      const { url, name } = stored
      if (typeof url !== 'string' || url.length > 2_048 || httpAddressRule(url) !== undefined)
        return undefined
      if (typeof name !== 'string' || name === '' || name.length > MAX_NAME_LENGTH) return undefined
      return { url, name }
    },
    write: (kept: KeptWorkspace) => writeJsonAtomic(file, { format: FORMAT, url: kept.url, name: kept.name }),
    remove: () => rm(file, { force: true }),
  }
}
