/**
 * How a sandbox behaves. The sandbox is a real HTTP server on loopback that implements the
 * service contract, for trying the app without credentials and for testing the client against
 * real sockets. No Electron here: the CLI and the tests run it in plain Node.
 */

/** Which operation a rule applies to: the bulk upload, the app creation, a SKU's update. */
export type SandboxEndpoint = 'skus' | 'apps' | 'sku-update'

export type FaultKind =
  /** Wait `delayMs` (default 1 s), then behave normally. */
  | 'latency'
  /** 429 with `Retry-After: retryAfterSeconds` (default 1). */
  | 'rate-limit'
  /** 500 with a JSON `{message}`. */
  | 'server-error'
  /** 502 with a JSON `{message}`. */
  | 'bad-gateway'
  /** 503; with `Retry-After` only if `retryAfterSeconds` is given. */
  | 'unavailable'
  /** 504 with a JSON `{message}`. */
  | 'gateway-timeout'
  /** Destroy the connection without an answer. */
  | 'reset'
  /** 502 with an HTML page, as a proxy in front of a service would send. */
  | 'html-error'
  /** Wait `delayMs` (default 30 s) before answering normally. */
  | 'slow-response'

export interface FaultRule {
  kind: FaultKind
  /** Which operation; every one when absent. */
  endpoint?: SandboxEndpoint
  /**
   * 'before': the fault happens instead of processing (nothing is stored). 'after': the request is
   * processed and stored first, then the fault happens, as when a service works but the answer is
   * lost. Default 'before' ('latency' always runs before).
   */
  stage?: 'before' | 'after'
  /**
   * How many matching requests the rule applies to; default 1 (with `rate`, default every one).
   * `null` for every request.
   */
  times?: number | null
  /**
   * The chance (above 0, at most 1) that the rule applies to a matching request; a request it
   * spares goes on to the next rule. Drawn from the sandbox's seeded random (`faultSeed`), so a
   * soak run with one request at a time meets the same faults every time.
   */
  rate?: number
  delayMs?: number
  retryAfterSeconds?: number
}

/**
 * The service's capacity (see `CapacityGate`): each request to an operation takes `latencyMs`,
 * `slots` are served at once, and a request beyond them is answered 429 at once, with
 * `Retry-After: retryAfterSeconds` (default 1), and not processed.
 */
export interface CapacityModel {
  latencyMs: number
  slots: number
  retryAfterSeconds?: number
}

/** Which form of the token the sandbox accepts after `Bearer `. */
export type SandboxTokenEncoding = 'raw' | 'base64' | 'either'

export interface SandboxOptions {
  /** 0 (the default) picks a free port. Always bound to 127.0.0.1. */
  port?: number
  /**
   * A `port` that cannot be listened on (another program has it, or the system refuses it) stops
   * the start (`fail`, the default), or the sandbox takes a free port instead (`free-port`): the
   * result's `port` says which it got.
   */
  unavailablePort?: 'fail' | 'free-port'
  token: string
  tokenEncoding?: SandboxTokenEncoding
  /** More SKUs than this in one bulk request answers 413. Default 200. */
  maxBatch?: number
  /**
   * The bulk upload's 201 names the platform id of each SKU it created, in the request's order:
   * `{message, count, skus: [{_id, barcode}]}` (true, the default), or is `{message, count}`
   * alone (false), for trying a client against a service that gives no ids. The live service's
   * answer is not documented: both are the sandbox's choice. Also `/__sandbox/settings`.
   */
  answerIds?: boolean
  /**
   * The contract's sample response returns these nested objects of a created app empty: features,
   * skinConcerns, report_titles, overallSkinScore, ui_config.advance, loadingScreen,
   * instructionScreen, customCode. Default true, as the sample shows.
   */
  emptyNestedObjects?: boolean
  /**
   * A request body larger than this many bytes answers 413 without being parsed. Default 20 MB:
   * far above any batch the app sends, low enough that a runaway client cannot exhaust memory.
   */
  maxBodyBytes?: number
  /** Where what the sandbox received is kept (JSON Lines, one line a request). In memory only when absent. */
  storeFile?: string
  /**
   * A store file that cannot be used (damaged, not a store, too big) stops the start (`fail`, the
   * default), or is moved aside so the sandbox starts empty and says so in `notice` (`set-aside`).
   */
  unusableStore?: 'fail' | 'set-aside'
  /**
   * The store's largest size in bytes (default 256 MB); past it the oldest entries are dropped and
   * `/__sandbox/received` says how many. Applies in memory too.
   */
  maxStoreBytes?: number
  faults?: FaultRule[]
  /**
   * A capacity model, as the service's own load test measures it; none by default (every request
   * is served at once, without delay). Fault rules come first: they act in front of the service.
   */
  capacity?: CapacityModel
  /** Seeds the random draws of rules with a `rate`. Default 1: the same faults run after run. */
  faultSeed?: number
  /**
   * Barcodes the service refuses although they meet the contract (a duplicate on the platform,
   * a blocked product…): a bulk upload holding any of them answers 422 for the whole batch, with
   * `errors[].path` `skus.N.barcode` for each, and stores nothing, as for any invalid batch.
   */
  rejectBarcodes?: string[]
}
