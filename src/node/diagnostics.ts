import type { AppInfo, ProfilesState, UpdateStatus } from '#shared/ipc.ts'
import type { Redact } from './secrets/redaction.ts'

/** What "Copy diagnostics" tells whoever helps the person: facts, never a token. */
export interface DiagnosticsFacts {
  app: AppInfo
  system: { platform: string; release: string; arch: string }
  folders: { data: string; logs: string }
  profiles: ProfilesState
  updates: UpdateStatus
  /** The last warnings and errors of the log, as written there (already redacted). */
  problems: string[]
  at: Date
}

const TOKEN_WORDS = {
  keychain: 'a token in the keychain',
  memory: 'a token in memory for this session',
  'embedded-sandbox': 'the embedded sandbox (no token needed)',
} as const

const FEED_WORDS = { address: 'the address from Settings', build: "the build's own", none: 'none' } as const

/**
 * The diagnostics as plain text, one fact a line, ready to paste into a message. Profiles are told
 * by name and address, and whether each has a token, never which. The whole text goes through
 * `redact` at the end all the same: a token that found its way into a profile's name, a log line
 * or a folder's path does not leave.
 */
export function diagnosticsText(facts: DiagnosticsFacts, redact: Redact): string {
  const { app, system, folders, profiles, updates } = facts
  const active = profiles.profiles.find((profile) => profile.id === profiles.activeId)
  const lines = [
    `Catalog Desk diagnostics, ${facts.at.toISOString()}`,
    '',
    `App: ${app.name} ${app.version}`,
    `Electron: ${app.versions.electron ?? '(not running in Electron)'}`,
    `Chrome: ${app.versions.chrome ?? '(not running in Electron)'}`,
    `Node: ${app.versions.node}`,
    `OS: ${system.platform} ${system.release} (${system.arch})`,
    `Data folder: ${folders.data}`,
    `Logs folder: ${folders.logs}`,
    '',
    `Updates: ${updates.phase}${updates.version ? ` (${updates.version})` : ''}; automatic checks ${
      updates.settings.automatic ? 'on' : 'off'
    }; feed: ${FEED_WORDS[updates.feed]}${updates.settings.feedAddress ? ` (${updates.settings.feedAddress})` : ''}; last check: ${
      updates.lastCheckAt === undefined ? 'never' : new Date(updates.lastCheckAt).toISOString()
    }`,
    ...(updates.message ? [`Updates say: ${updates.message}`] : []),
    '',
    `Profiles (${profiles.profiles.length}; active: ${active?.name ?? profiles.activeId}):`,
    ...profiles.profiles.map(
      (profile) =>
        `- ${profile.name} [${profile.id}]: ${profile.url || '(no address)'}, ${
          profile.tokenStorage ? TOKEN_WORDS[profile.tokenStorage] : 'no token'
        }`,
    ),
    ...(profiles.notice ? [`Profiles notice: ${profiles.notice}`] : []),
    '',
    facts.problems.length === 0
      ? 'Last problems in the log: none'
      : `Last problems in the log (${facts.problems.length}, oldest first):`,
    ...facts.problems.map((problem) => problem.replace(/^/gm, '  ')),
  ]
  return redact(`${lines.join('\n')}\n`)
}
