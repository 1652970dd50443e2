import { randomUUID } from 'node:crypto'

/** The organisation every sandbox app belongs to: the sandbox has one caller. */
export const SANDBOX_ORG_ID = 'sandbox-org'

type JsonObject = Record<string, unknown>

/** The `app` of the create response, in the contract's field order. */
export interface CreatedApp {
  _id: string
  org_id: string
  name: unknown
  status: unknown
  expire_images_after_days: unknown
  meta: JsonObject
  report_config: JsonObject
  created_at: string
  copilot: JsonObject
  sdkVersion: unknown
  algorithmVersion: unknown
  appConfig: {
    _id: string
    app_id: string
    ui_config: JsonObject
    meta: JsonObject
    domains: unknown[]
    created_at: string
    updated_at: string
  }
}

/**
 * Where the contract's sample response has an empty object although the request filled it in.
 * Paths are inside `app`; a path the request did not have stays absent.
 */
export const EMPTIED_IN_RESPONSE: readonly (readonly string[])[] = [
  ['report_config', 'features'],
  ['report_config', 'skinConcerns'],
  ['report_config', 'report_titles'],
  ['report_config', 'overallSkinScore'],
  ['appConfig', 'ui_config', 'advance'],
  ['appConfig', 'ui_config', 'screens', 'loadingScreen'],
  ['appConfig', 'ui_config', 'screens', 'instructionScreen'],
  ['appConfig', 'ui_config', 'customCode'],
]

function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const objectOr = (value: unknown): JsonObject => (isRecord(value) ? structuredClone(value) : {})

function emptyAt(app: JsonObject, path: readonly string[]): void {
  let parent: unknown = app
  for (const key of path.slice(0, -1)) parent = isRecord(parent) ? parent[key] : undefined
  const last = path.at(-1)
  if (isRecord(parent) && last !== undefined && Object.hasOwn(parent, last)) parent[last] = {}
}

/**
 * The app the sandbox creates from a (valid) request. Only the contract's response fields are
 * returned: a top-level field it does not list is kept in the received store, not echoed, so the
 * app's "compare with what was sent" view has something real to show.
 */
export function createdApp(
  request: JsonObject,
  options: { emptyNestedObjects: boolean; now: Date },
): CreatedApp {
  const id = randomUUID()
  const at = options.now.toISOString()
  const config = objectOr(request.appConfig)
  const app: CreatedApp = {
    _id: id,
    org_id: SANDBOX_ORG_ID,
    name: request.name,
    status: request.status,
    expire_images_after_days: request.expire_images_after_days,
    meta: objectOr(request.meta),
    report_config: objectOr(request.report_config),
    created_at: at,
    copilot: {},
    sdkVersion: request.sdkVersion,
    algorithmVersion: request.algorithmVersion,
    appConfig: {
      _id: randomUUID(),
      app_id: id,
      ui_config: objectOr(config.ui_config),
      meta: objectOr(config.meta),
      domains: Array.isArray(config.domains) ? structuredClone(config.domains) : [],
      created_at: at,
      updated_at: at,
    },
  }
  if (options.emptyNestedObjects) {
    for (const path of EMPTIED_IN_RESPONSE) emptyAt(app as unknown as JsonObject, path)
  }
  return app
}
