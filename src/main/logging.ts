import { join } from 'node:path'
import { app } from 'electron'
import { createAppLog, type AppLog } from '#node/app-log.ts'
import type { Redact } from '#node/secrets/redaction.ts'

/** Where the process-wide listener finds the log it writes to (one listener, however often main starts in tests). */
const CURRENT_LOG = Symbol.for('catalog-desk.main-log')
type WithLog = typeof globalThis & { [CURRENT_LOG]?: AppLog }

/** The platform's logs folder; the data folder's `logs` should Electron not give one (it never fails the start). */
function logsFolder(): string {
  try {
    return app.getPath('logs')
  } catch {
    return join(app.getPath('userData'), 'logs')
  }
}

/**
 * Main's log in the platform's logs folder (`app.getPath('logs')`: ~/Library/Logs/Catalog Desk on
 * macOS, the data folder's `logs` elsewhere), every entry redacted with `redact`. Console output
 * only in development. Uncaught exceptions and rejections (watched, not handled: Electron's own
 * behaviour stays), and pages or helper processes that die, are logged too.
 */
export function startMainLog(redact: Redact): AppLog {
  const log = createAppLog({
    folder: logsFolder(),
    redact,
    console: import.meta.env.DEV && !app.isPackaged,
  })
  const holder = globalThis as WithLog
  if (!holder[CURRENT_LOG]) {
    process.on('uncaughtExceptionMonitor', (error, origin) =>
      holder[CURRENT_LOG]?.error(
        origin === 'unhandledRejection' ? 'An unhandled promise rejection' : 'An uncaught exception',
        error,
      ),
    )
  }
  holder[CURRENT_LOG] = log
  app.on('render-process-gone', (_event, _contents, details) => {
    if (details.reason !== 'clean-exit') {
      log.error(`The window's page stopped (${details.reason}, exit code ${details.exitCode}).`)
    }
  })
  app.on('child-process-gone', (_event, details) => {
    if (details.reason !== 'clean-exit') {
      log.error(
        `A helper process stopped: ${details.type}${details.name ? ` (${details.name})` : ''}, ${details.reason}, exit code ${details.exitCode}.`,
      )
    }
  })
  const { electron, chrome, node } = process.versions
  log.info(
    `Catalog Desk ${app.getVersion()} starting (${app.isPackaged ? 'installed build' : 'development copy'}): Electron ${electron ?? '-'}, Chrome ${chrome ?? '-'}, Node ${node}, ${process.platform} ${process.arch}.`,
  )
  return log
}
