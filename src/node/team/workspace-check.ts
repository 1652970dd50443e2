import { httpAddressRule } from '#shared/http-address.ts'
import { messageOf } from '#shared/error-message.ts'
import type { WorkspaceProblem } from '#shared/team/workspace-status.ts'
import type { Workspace } from './replica.ts'
import { askServer } from './server-request.ts'

/** Whether a desk may join a workspace, and as whom: what joining checks before it keeps anything. */
export type WorkspaceCheck =
  { ok: true; name: string } | { ok: false; problem: WorkspaceProblem; message: string }

/**
 * Asks the workspace's server who the user is (CouchDB's `_session`) and whether that user may read
 * its database (the database's own address), so that joining says what is wrong in words before
 * the replica starts, rather than a replication that retries. The desk's name on the drafts is the
 * name the server answers, not the one typed. Nothing is sent to an address that is neither https
 * nor http on this computer, nor to one naming a user in it.
 */
export async function checkWorkspace({ url, username, password }: Workspace): Promise<WorkspaceCheck> {
  const rule = httpAddressRule(url)
  if (rule)
    return {
      ok: false,
      problem: 'address',
      message:
        rule === 'form'
          ? `${url} is not a workspace's address: it must start with https:// (or http:// on this computer only).`
          : rule === 'credentials'
            ? 'The address names a user: give the name and password in their own fields instead.'
            : 'The address has a query or a fragment (? or #): give the database’s address only.',
    }
  const database = new URL(url.replace(/\/+$/, ''))
  const ask = (address: string) => askServer({ username, password }, address)
  try {
    const session = await ask(new URL('/_session', database).href)
    const name = (session.body as { userCtx?: { name?: unknown } } | undefined)?.userCtx?.name
    if (session.statusCode === 401 || typeof name !== 'string')
      return {
        ok: false,
        problem: 'credentials',
        message: `The server at ${database.origin} does not know this name and password.`,
      }
    const db = await ask(database.href)
    if (db.statusCode === 401 || db.statusCode === 403)
      return {
        ok: false,
        problem: 'not-a-member',
        message: `${name} is not a member of the workspace ${database.pathname.slice(1)}: ask its administrator.`,
      }
    if (db.statusCode !== 200)
      return {
        ok: false,
        problem: 'no-database',
        message: `There is no workspace at ${database.href} (HTTP ${db.statusCode}).`,
      }
    return { ok: true, name }
  } catch (error) {
    return {
      ok: false,
      problem: 'unreachable',
      message: `${database.origin} did not answer: ${messageOf(error)}`,
    }
  }
}
