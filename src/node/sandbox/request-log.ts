import type { SandboxEndpoint } from './options.ts'

/**
 * What happened to one request: 'pending' while the sandbox is still working on it (or waiting,
 * for a slow-response fault), 'reset' when the connection was dropped on purpose, 'abandoned' when
 * the client went away (or the sandbox closed) before it was answered.
 */
export type RequestFate = number | 'pending' | 'reset' | 'abandoned'

export interface RequestLogEntry {
  /** When the request arrived (ISO 8601). */
  at: string
  method: string
  path: string
  /** The operation the path names; null for any other path. */
  endpoint: SandboxEndpoint | null
  status: RequestFate
  /** Whether what it carried was stored (a fault at stage 'after' can lose the answer, not the data). */
  stored: boolean
  /** SKUs in the request's `skus` list; null when the body was not read or held no list. */
  skuCount: number | null
  /** The fault rule that applied, in `describeFault` words; null when none did. */
  fault: string | null
}

/** Enough history to inspect a run; a sandbox left running for days does not grow without end. */
const LIMIT = 1_000

export class RequestLog {
  #entries: RequestLogEntry[] = []

  /** Adds an entry and returns it; the caller fills in the outcome as it becomes known. */
  open(entry: RequestLogEntry): RequestLogEntry {
    this.#entries.push(entry)
    if (this.#entries.length > LIMIT) this.#entries.splice(0, this.#entries.length - LIMIT)
    return entry
  }

  list(): RequestLogEntry[] {
    return this.#entries.map((entry) => ({ ...entry }))
  }
}
