import type { CapacityGate } from './capacity.ts'
import type { FaultBook } from './faults.ts'
import type { SandboxTokenEncoding } from './options.ts'
import type { ReceivedStore } from './received-store.ts'
import type { RequestLog } from './request-log.ts'

/** The options with their defaults applied. */
export interface SandboxSettings {
  readonly token: string
  readonly tokenEncoding: SandboxTokenEncoding
  readonly maxBatch: number
  readonly maxBodyBytes: number
  readonly emptyNestedObjects: boolean
  /** Changes while it runs (`/__sandbox/settings`): see `SandboxOptions.answerIds`. */
  answerIds: boolean
}

/** What the request handlers share: one per running sandbox. */
export interface SandboxContext {
  settings: SandboxSettings
  store: ReceivedStore
  faults: FaultBook
  capacity: CapacityGate
  log: RequestLog
  /** Barcodes refused although valid (the `rejectBarcodes` option and the control endpoint). */
  rejectedBarcodes: Set<string>
  now: () => Date
}
