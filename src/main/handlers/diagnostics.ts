import { mkdir } from 'node:fs/promises'
import { release } from 'node:os'
import { diagnosticsText } from '#node/diagnostics.ts'
import type { ProfilesState } from '#shared/ipc.ts'
import type { HandlerDeps, Handlers } from './types.ts'

/** How many of the log's last warnings and errors the diagnostics carry. */
const DIAGNOSTICS_PROBLEMS = 10

type DiagnosticsHandlers = Pick<Handlers, 'openLogsFolder' | 'getDiagnostics'>

/**
 * Settings › Logs and diagnostics: the log's folder opened in the file manager, and the text
 * "Copy diagnostics" puts on the clipboard (the page copies it with writeClipboard).
 */
export function createDiagnosticsHandlers(
  deps: Pick<HandlerDeps, 'appInfo' | 'log' | 'updates' | 'openPath' | 'dataDir' | 'redact'>,
  listProfiles: () => Promise<ProfilesState>,
): DiagnosticsHandlers {
  return {
    openLogsFolder: async () => {
      const folder = deps.log.folder
      // Made if nothing was written yet, so the file manager opens it rather than failing.
      await mkdir(folder, { recursive: true })
      const problem = await deps.openPath(folder)
      if (problem) throw new Error(`The logs folder could not be opened (${problem}). It is ${folder}`)
    },
    getDiagnostics: async () =>
      diagnosticsText(
        {
          app: deps.appInfo(),
          system: { platform: process.platform, release: release(), arch: process.arch },
          folders: { data: deps.dataDir, logs: deps.log.folder },
          profiles: await listProfiles(),
          updates: deps.updates.status(),
          problems: await deps.log.problems(DIAGNOSTICS_PROBLEMS),
          at: new Date(),
        },
        deps.redact,
      ),
  }
}
