import { createAssetCheckHandlers } from './asset-checks.ts'
import { createDiagnosticsHandlers } from './diagnostics.ts'
import { createLocalSettingsHandlers } from './local-settings.ts'
import { logged } from './logged.ts'
import { createServiceHandlers } from './service.ts'
import { createShellHandlers } from './shell.ts'
import { createSyncHandlers } from './sync.ts'
import { createTeamHandlers } from './team.ts'
import { createTryOnHandlers } from './try-on.ts'
import type { HandlerDeps, Handlers } from './types.ts'
import { createUpdateHandlers } from './updates.ts'

/**
 * Every channel's handler, by domain; plain functions, so they run (and are tested) without
 * Electron. What matters goes to main's log (logged.ts).
 */
export function createHandlers(deps: HandlerDeps): Handlers {
  const service = createServiceHandlers(deps)
  return logged(
    {
      ...service,
      ...createSyncHandlers(deps),
      ...createShellHandlers(deps),
      ...createLocalSettingsHandlers(deps),
      ...createAssetCheckHandlers(deps),
      ...createUpdateHandlers(deps),
      ...createDiagnosticsHandlers(deps, service.listProfiles),
      ...createTryOnHandlers(deps),
      ...createTeamHandlers(deps),
    },
    deps.log,
  )
}
