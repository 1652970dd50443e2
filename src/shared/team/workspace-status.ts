/**
 * Where this desk stands with a team workspace (issue #41), as main holds it and Settings shows it:
 * none joined, one being joined (its address checked), or one joined, with what its replication is
 * doing. Never a password: main keeps it in the keychain and no channel gives it back.
 */
export type WorkspaceStatus =
  | { state: 'none' }
  | { state: 'joining'; url: string }
  | {
      state: 'joined'
      /** The workspace's database, as kept (no trailing slash). */
      url: string
      /** The desk's name: the user the server answered for when the desk joined. */
      name: string
      replication: WorkspaceReplication
      /** The last document the server refused (its `validate_doc_update`), while replication goes on. */
      refused?: { id: string; reason: string }
      /**
       * Documents from the workspace this desk set aside since it joined or started, never applied
       * (too large, a prototype key, not a draft's shape): how many, and the last one and why.
       */
      setAside?: { count: number; last: { id: string; reason: string } }
    }

/**
 * What replication is doing: starting, sending or receiving, up to date, waiting to retry (offline,
 * the server down), stopped because the server refused the name and password, or not running
 * because the replica could not be opened or the password is not kept any more.
 */
export type WorkspaceReplication =
  | { kind: 'starting' }
  | { kind: 'sending' }
  | { kind: 'up-to-date' }
  | { kind: 'offline'; reason: string }
  | { kind: 'unauthorized'; reason: string }
  | { kind: 'failed'; reason: string }

/** What joining came to: the workspace held, or what is wrong in words (workspace-check.ts). */
export type WorkspaceJoin =
  | {
      ok: true
      status: WorkspaceStatus
      /** Set when the password could not go to the keychain: it is kept in memory for this session. */
      notice?: string
    }
  | { ok: false; problem: WorkspaceProblem; message: string }

/** What joining found wrong: the address, the server not answering, the name and password, the membership, the database. */
export type WorkspaceProblem = 'address' | 'unreachable' | 'credentials' | 'not-a-member' | 'no-database'
