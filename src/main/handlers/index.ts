import { createAssetCheckHandlers } from './asset-checks.ts'
import { createLocalSettingsHandlers } from './local-settings.ts'
import { createServiceHandlers } from './service.ts'
import { createShellHandlers } from './shell.ts'
import { createSyncHandlers } from './sync.ts'
import type { HandlerDeps, Handlers } from './types.ts'

/** Every channel's handler, by domain; plain functions, so they run (and are tested) without Electron. */
export function createHandlers(deps: HandlerDeps): Handlers {
  return {
    ...createServiceHandlers(deps),
    ...createSyncHandlers(deps),
    ...createShellHandlers(deps),
    ...createLocalSettingsHandlers(deps),
    ...createAssetCheckHandlers(deps),
  }
}
