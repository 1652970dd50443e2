import { counted } from '../counted.ts'
import { lazily } from '../lazily.ts'
import { z } from '../schema/zod.ts'
import type { OutcomeKind } from './outcome.ts'
import { BULK_UPLOAD_PATH, CREATE_APP_PATH, SKU_UPDATE_PATH } from './endpoints.ts'

/**
 * The service's operations, as values: what each one is called, how it is sent (method, path,
 * body), what the page may hand for it, and what its answers mean. Main and the CLI send through
 * this table alone (src/node/service/client.ts): the page names an operation by its key and hands
 * its argument over one channel (`syncSend`), main checks the argument against `argument` and
 * builds the request from the entry, so nothing from the page becomes a method, a path or a
 * header. A new operation is one more entry here.
 */

/*
 * The schemas below are built on their first use (lazily.ts), the table's through getters: main
 * and the CLI check with them, the page only names operations, and its start does not pay for
 * them (issue #37).
 */

/** What may appear in a path parameter: letters, digits, `-` and `_`, so no value can add a segment. */
export const pathParameter = lazily(() =>
  z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'letters, digits, "-" and "_" only, at most 128'),
)

export interface ServiceOperation<Argument> {
  readonly method: 'POST' | 'PUT'
  /** The path under the profile's base URL; `{name}` is a path parameter, filled by `pathParams`. */
  readonly path: string
  /** The schema of every path parameter the path names: a value that fails it is never sent. */
  readonly params: Readonly<Record<string, z.ZodType<string>>>
  /**
   * What the page may hand for it over the bridge, checked in main before anything is built (only
   * its shape: what the items hold is the service's to judge, and a refused one is shown).
   */
  readonly argument: z.ZodType<Argument>
  /** The path parameters an argument gives (checked against `params` as the path is built). */
  pathParams(argument: Argument): Readonly<Record<string, string>>
  /** The JSON body an argument becomes: byte for byte what leaves (and what a request's bytes count). */
  body(argument: Argument): unknown
  /** How many items an argument carries, for main's log ("3 SKUs sent to …"). */
  logWords(argument: Argument): string
  /** What the items are called in an outcome's words: "the SKUs", "the app". */
  readonly subject: string
  /** What the operation does to them, in an outcome's words: "created", "updated". */
  readonly done: string
  /** What to do about a 413 beyond "nothing was created", when there is something to say. */
  readonly tooLargeAdvice?: string
  /**
   * What an answer means where it differs from the outcome table's row for its status (the
   * update's 404 with a JSON message: that SKU is not on the platform, rather than a wrong address).
   */
  readonly statuses: Readonly<Partial<Record<number, OutcomeKind>>>
}

function operation<Argument>(definition: ServiceOperation<Argument>): ServiceOperation<Argument> {
  return definition
}

/** The most SKUs a profile sends in one request (its batch size is at most 1,000). */
export const MAX_SKUS_A_REQUEST = 1_000

const jsonObject = lazily(() => z.record(z.string(), z.unknown()))
const skuBatch = lazily(() => z.array(jsonObject()).min(1).max(MAX_SKUS_A_REQUEST))

/** A SKU's update as the page hands it: the platform's id of the SKU and the fields to change. */
export const skuUpdateArgument = lazily(() =>
  z.strictObject({ skuId: pathParameter(), fields: jsonObject() }),
)
export type SkuUpdateArgument = z.output<ReturnType<typeof skuUpdateArgument>>

export const SERVICE_OPERATIONS = {
  /** SKUs created in a batch (the connection test sends an empty one, from main only). */
  'bulk-upload': operation({
    method: 'POST',
    path: BULK_UPLOAD_PATH,
    params: {},
    get argument() {
      return skuBatch()
    },
    pathParams: () => ({}),
    body: (skus) => ({ skus }),
    logWords: (skus) => `${counted(skus.length, 'SKU')} sent to`,
    subject: 'the SKUs',
    done: 'created',
    tooLargeAdvice: 'send fewer SKUs in one request',
    statuses: {},
  }),
  /** One app created from its creation request. */
  'create-app': operation({
    method: 'POST',
    path: CREATE_APP_PATH,
    params: {},
    get argument() {
      return jsonObject()
    },
    pathParams: () => ({}),
    body: (request) => request,
    logWords: () => 'an app created at',
    subject: 'the app',
    done: 'created',
    statuses: {},
  }),
  /**
   * One SKU's partial update (the live service's public docs: "only the provided fields are
   * modified"): the fields that changed since what stands there, under the platform's id of it.
   */
  'update-sku': operation({
    method: 'PUT',
    path: SKU_UPDATE_PATH,
    get params() {
      return { skuId: pathParameter() }
    },
    get argument() {
      return skuUpdateArgument()
    },
    pathParams: ({ skuId }) => ({ skuId }),
    body: ({ fields }) => fields,
    logWords: () => 'a SKU updated at',
    subject: 'the SKU',
    done: 'updated',
    statuses: { 404: 'not-found' },
  }),
} as const

export type OperationKey = keyof typeof SERVICE_OPERATIONS

export const OPERATION_KEYS = Object.keys(SERVICE_OPERATIONS) as OperationKey[]

/** An operation's entry, typed loosely: for code that holds an argument it has not looked into. */
export function serviceOperation(key: OperationKey): ServiceOperation<unknown> {
  return SERVICE_OPERATIONS[key] as ServiceOperation<unknown>
}

/** One request: an operation's key and its argument, as whoever sends it holds them. */
export interface OperationCall {
  operation: OperationKey
  argument: unknown
}

/** One request as the page asks main for it: an operation's key and that operation's argument. */
export type ServiceRequest = {
  [K in OperationKey]: { operation: K; argument: z.output<(typeof SERVICE_OPERATIONS)[K]['argument']> }
}[OperationKey]

/**
 * The schema main checks a request from the page with: a known key, and that operation's argument
 * (built from the table, so a new entry is checked with no change here).
 */
export const serviceRequestSchema = lazily(
  () =>
    z.discriminatedUnion(
      'operation',
      OPERATION_KEYS.map((key) =>
        z.strictObject({ operation: z.literal(key), argument: SERVICE_OPERATIONS[key].argument }),
      ) as unknown as [z.ZodObject, ...z.ZodObject[]],
    ) as unknown as z.ZodType<ServiceRequest, ServiceRequest>,
)

/**
 * An operation's path for an argument: each `{name}` replaced by its parameter once the parameter
 * passes its schema (and percent-encoded all the same), or the problem, naming the parameter. A
 * path without parameters is the entry's own.
 */
export function operationPath<Argument>(
  definition: Pick<ServiceOperation<Argument>, 'path' | 'params' | 'pathParams'>,
  argument: Argument,
): { path: string } | { problem: string } {
  const given = definition.pathParams(argument)
  let problem: string | undefined
  const path = definition.path.replace(/\{([A-Za-z]+)\}/g, (_whole, name: string) => {
    const checked = definition.params[name]?.safeParse(given[name])
    if (!checked?.success) {
      problem ??= `The path parameter "${name}" cannot be sent: ${checked?.error.issues[0]?.message ?? 'the operation does not declare it'}.`
      return ''
    }
    return encodeURIComponent(checked.data)
  })
  return problem === undefined ? { path } : { problem }
}
