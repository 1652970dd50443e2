// Type declarations for the few parts of PouchDB the team workspace uses (issue #41). The
// DefinitelyTyped ones were not taken: they declare a global `Buffer` and the DOM's library into
// every Node program of the project.

declare module 'pouchdb-core' {
  export interface Document {
    _id: string
    _rev?: string
    _deleted?: boolean
    [field: string]: unknown
  }
  export type StoredDocument = Document & { _rev: string }
  export interface Response {
    ok: true
    id: string
    rev: string
  }
  export interface ErrorAnswer {
    error: string | boolean
    status?: number
    id?: string
    reason?: string
    message?: string
  }
  export interface ChangesAnswer {
    results: Array<{ id: string; seq: string | number; doc?: StoredDocument & { _conflicts?: string[] } }>
    last_seq: string | number
  }
  export interface Sync {
    on(event: 'active' | 'complete', listener: () => void): Sync
    on(event: 'paused' | 'denied' | 'error', listener: (error?: ErrorAnswer) => void): Sync
    on(event: 'change', listener: (info: unknown) => void): Sync
    cancel(): void
    /** Each direction on its own: its `paused` carries the error that the sync's own leaves out. */
    pull: Replication
    push: Replication
  }
  export interface Replication {
    on(event: 'paused', listener: (error?: ErrorAnswer) => void): Replication
  }
  export interface Database {
    put(doc: Document): Promise<Response>
    get(
      id: string,
      options?: { rev?: string; conflicts?: boolean },
    ): Promise<StoredDocument & { _conflicts?: string[] }>
    /** The winning versions of `keys` (a row each; none for a document never written or removed). */
    allDocs(options: {
      keys: string[]
      include_docs: true
    }): Promise<{ rows: Array<{ key: string; doc?: StoredDocument | null }> }>
    /** `new_edits: false`: the revisions given are stored as they are (replication's way of writing). */
    bulkDocs(docs: Document[], options?: { new_edits?: boolean }): Promise<Array<Response | ErrorAnswer>>
    changes(options: {
      since: string | number
      limit?: number
      include_docs?: boolean
      conflicts?: boolean
      style?: 'all_docs' | 'main_only'
    }): Promise<ChangesAnswer>
    sync(
      remote: Database,
      options: {
        live?: boolean
        retry?: boolean
        batch_size?: number
        /** The wait before the next retry, in ms, from the last one (0 at first). */
        back_off_function?: (last: number) => number
      },
    ): Sync
    /** What the database is and its latest sequence. */
    info(): Promise<DatabaseInfo>
    close(): Promise<void>
  }
  export interface DatabaseInfo {
    db_name: string
    doc_count: number
    update_seq: number | string
  }
  export interface Options {
    adapter?: string
    prefix?: string
    auth?: { username: string; password: string }
    skip_setup?: boolean
    /** The HTTP adapter's requests go through this instead of pouchdb-fetch's `fetch`. */
    fetch?: Fetch
  }
  export type Fetch = (url: string, init: Record<string, unknown>) => Promise<unknown>
  export interface Static {
    new (name: string, options?: Options): Database
    plugin(plugin: Plugin): Static
    defaults(options: Options): Static
    adapter(name: string, adapter: unknown, preferred?: boolean): void
  }
  export type Plugin = ((pouch: Static) => void) | Record<string, unknown>
  const PouchDB: Static
  export default PouchDB
}

declare module 'pouchdb-adapter-http' {
  const plugin: import('pouchdb-core').Plugin
  export default plugin
}

declare module 'pouchdb-fetch' {
  export const fetch: import('pouchdb-core').Fetch
}

declare module 'pouchdb-replication' {
  const plugin: import('pouchdb-core').Plugin
  export default plugin
}

declare module 'pouchdb-adapter-memory' {
  const plugin: import('pouchdb-core').Plugin
  export default plugin
}

declare module 'pouchdb-mapreduce' {
  const plugin: import('pouchdb-core').Plugin
  export default plugin
}

declare module 'pouchdb-adapter-leveldb-core' {
  /** The LevelDOWN-based adapter's constructor, given a `db` factory (leveldown) in its options. */
  const LevelPouch: (
    this: unknown,
    options: Record<string, unknown>,
    callback: (error?: Error) => void,
  ) => void
  export default LevelPouch
}

declare module 'leveldown' {
  /** LevelDOWN's store factory: PouchDB's LevelDB adapter calls it with a folder. */
  const leveldown: (location: string) => unknown
  export default leveldown
}

declare module 'express-pouchdb' {
  import type { IncomingMessage, ServerResponse } from 'node:http'
  /** An express application: a request listener for node:http's server. */
  function expressPouchDB(
    PouchDB: import('pouchdb-core').Static,
    options?: {
      mode?: 'fullCouchDB' | 'minimumForPouchDB' | 'custom'
      inMemoryConfig?: boolean
      logPath?: string
    },
  ): (request: IncomingMessage, response: ServerResponse) => void
  export default expressPouchDB
}
