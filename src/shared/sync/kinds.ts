import { appCreateResponseSchema } from '../schema/app.ts'
import type { Outcome } from '../service/outcome.ts'
import { serviceOperation, type OperationCall, type OperationKey } from '../service/operations.ts'
import { isRecord } from '../is-record.ts'
import { counted } from '../counted.ts'
import { textOf } from '../text-of.ts'
import { platformIdsOf } from './platform-ids.ts'
import type { ItemUpdate, OutboxItem, RunAction, SyncKind } from './ports.ts'

/**
 * What differs between the two kinds of draft that are sent, said once: SKUs go in batches to the
 * bulk endpoint; an app is created alone. The engine, the CLI and the app take a kind's definition
 * and ask it, instead of asking which kind it is.
 */
export interface DraftKind {
  readonly kind: SyncKind
  /** The thing, as a person says it: "SKU", "app". Plurals take an -s (see `counted`). */
  readonly noun: string
  /** The same at the start of a sentence or a column: "SKU", "App". */
  readonly nounAtStart: string
  /** What a run does to them: "send" (SKUs), "create" (apps). */
  readonly verb: string
  /** How the app counts them in its lists and log: "draft" (the SKU list's word), "app". */
  readonly listNoun: string
  /** One not sent yet, in the app's words: "draft", "app draft". */
  readonly draftNoun: string
  /** What follows a run's count in the log, before the profile: "queued for", "queued to be created on". */
  readonly queuedOn: string
  /**
   * How many items a request carries and how many requests are out at once: SKUs as the profile
   * says; apps one a request, one request at a time (the create endpoint takes one app).
   */
  sending(profile: { batchSize: number; concurrency: number }): { batchSize: number; concurrency: number }
  /**
   * The service's operations it is sent with, by what each does, as keys of the operation table
   * (src/shared/service/operations.ts): `create` makes new ones from a batch; `update`, when the
   * service has one, changes one that was created (its argument is the item's payload, which the
   * outbox builds from what changed). A kind without `update` keeps its edits after a creation
   * to itself, and says so.
   */
  readonly operations: { readonly create: OperationKey; readonly update?: OperationKey }
  /** What a batch's payloads are handed to its `create` operation as. */
  createArgument(payloads: readonly unknown[]): unknown
  /** How a person finds one item in a log, a list or a report; `fallback` when it has no name. */
  label(payload: unknown, fallback: string): string
  /** How a batch is named in the live log: by its items' labels. */
  batchName(items: readonly Pick<OutboxItem, 'label'>[]): string
  /** What a 2xx writes on the batch's items. */
  createdUpdates(items: readonly OutboxItem[], outcome: Outcome): ItemUpdate[]
  /** Whether a created item keeps the service's id and answer (to compare with what was sent). */
  readonly keepsAnswer: boolean
  /** Whether every request carries exactly one item (then a request is named by it). */
  readonly onePerRequest: boolean
  /**
   * Whether the send gates hold some back before a run (send-gates.ts: what an empty one is, the
   * identity and required fields, a barcode shared or already created) and the last asset checks
   * are said with them. They are judged by barcodes, which only SKUs have.
   */
  readonly gated: boolean
  /**
   * Whether its unknown and failed ones can be settled against a list of what the platform holds
   * (by barcode: src/renderer/src/db/sync-reconcile.ts, the CLI's --platform-has).
   */
  readonly reconciled: boolean
  /** Whether a run may take a scope the person chose on the list, rather than every ready one. */
  readonly scoped: boolean
  /** Whether the person is shown each one (its summary) and asked before a run creates them. */
  readonly confirmed: boolean
}

const field = (payload: unknown, name: string): string => (isRecord(payload) ? textOf(payload[name]) : '')

/** A label is for reading, not for storing what the item says: long names are cut. */
const LABEL_LENGTH = 120

export const UNTITLED_APP = 'Untitled app'

export const NO_APP_ID_MESSAGE =
  'The service says it created the app, but its answer holds no app id: look the app up on the platform before creating it again.'

export const SKU_KIND: DraftKind = {
  kind: 'skus',
  noun: 'SKU',
  nounAtStart: 'SKU',
  verb: 'send',
  listNoun: 'draft',
  draftNoun: 'draft',
  queuedOn: 'queued for',
  sending: ({ batchSize, concurrency }) => ({
    batchSize: Math.max(1, Math.floor(batchSize)),
    concurrency: Math.max(1, Math.floor(concurrency)),
  }),
  operations: { create: 'bulk-upload', update: 'update-sku' },
  createArgument: (payloads) => [...payloads],
  label: (payload, fallback) =>
    (field(payload, 'barcode') || field(payload, 'productName') || fallback).slice(0, LABEL_LENGTH),
  batchName(items) {
    const first = items[0]?.label ?? ''
    if (items.length === 1) return `SKU ${first}`
    return `${counted(items.length, 'SKU')} (${first} … ${items.at(-1)?.label ?? ''})`
  },
  /** Synced, with the platform's id of each where the answer carried ids (platform-ids.ts). */
  createdUpdates(items, outcome) {
    const ids = platformIdsOf(
      outcome.body,
      items.map((item) => field(item.payload, 'barcode')),
    )
    return items.map((item, i) => {
      const remoteId = ids[i]
      return remoteId === undefined
        ? { key: item.key, state: 'synced' }
        : { key: item.key, state: 'synced', remoteId }
    })
  },
  keepsAnswer: false,
  onePerRequest: false,
  gated: true,
  reconciled: true,
  scoped: true,
  confirmed: false,
}

export const APP_KIND: DraftKind = {
  kind: 'apps',
  noun: 'app',
  nounAtStart: 'App',
  verb: 'create',
  listNoun: 'app',
  draftNoun: 'app draft',
  queuedOn: 'queued to be created on',
  sending: () => ({ batchSize: 1, concurrency: 1 }),
  operations: { create: 'create-app' },
  createArgument: (payloads) => payloads[0],
  label: (payload, _fallback) => (field(payload, 'name') || UNTITLED_APP).slice(0, LABEL_LENGTH),
  batchName: (items) => `App "${items[0]?.label ?? ''}"`,
  /**
   * The app's `_id` and the app as the service returned it, read with the shared schema since the
   * answer is untrusted; an answer without a readable id is still a creation (the status says so),
   * kept as synced with a message rather than resent.
   */
  createdUpdates(items, outcome) {
    const parsed = appCreateResponseSchema().safeParse(outcome.body)
    return items.map((item) =>
      parsed.success
        ? { key: item.key, state: 'synced', remoteId: parsed.data.app._id, response: parsed.data.app }
        : { key: item.key, state: 'synced', message: NO_APP_ID_MESSAGE },
    )
  },
  keepsAnswer: true,
  onePerRequest: true,
  gated: false,
  reconciled: false,
  scoped: false,
  confirmed: true,
}

export const DRAFT_KINDS: Readonly<Record<SyncKind, DraftKind>> = { skus: SKU_KIND, apps: APP_KIND }

/** The kinds in the order the app shows them (the Sync page's panels). */
export const SYNC_KINDS = Object.keys(DRAFT_KINDS) as SyncKind[]

export function draftKind(kind: SyncKind): DraftKind {
  return DRAFT_KINDS[kind]
}

/** The request that creates a batch of the kind: its operation and argument. */
export function createRequest(definition: DraftKind, payloads: readonly unknown[]): OperationCall {
  return { operation: definition.operations.create, argument: definition.createArgument(payloads) }
}

/**
 * The request a run's batch becomes: a creation of the batch, or the update of its one item (whose
 * payload is the update operation's argument).
 */
export function runRequest(
  definition: DraftKind,
  action: RunAction,
  payloads: readonly unknown[],
): OperationCall {
  if (action === 'create') return createRequest(definition, payloads)
  const operation = definition.operations.update
  if (operation === undefined) throw new Error(`${definition.nounAtStart}s have no update operation.`)
  return { operation, argument: payloads[0] }
}

/** How many items a request of the run carries and how many are out at once. */
export function runSending(
  definition: DraftKind,
  action: RunAction,
  profile: { batchSize: number; concurrency: number },
): { batchSize: number; concurrency: number } {
  const sending = definition.sending(profile)
  // An update names one item in its path: one a request, as many at once as the kind sends.
  return action === 'update' ? { ...sending, batchSize: 1 } : sending
}

/** The body a request becomes, as the operation table builds it (what leaves, byte for byte). */
export function requestBody({ operation, argument }: OperationCall): unknown {
  return serviceOperation(operation).body(argument)
}
