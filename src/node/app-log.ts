import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { formatWithOptions } from 'node:util'
import nodeLog from 'electron-log/node'
import type { Redact } from './secrets/redaction.ts'

/**
 * Main's log: one file in the platform's logs folder (main gives it: `app.getPath('logs')`),
 * written by electron-log's file transport. Every entry is made one text and redacted before any
 * transport sees it, so a token main holds never reaches the file, whatever was logged: a message,
 * an object, an error with its stack and properties.
 */
export interface AppLog {
  info(message: string): void
  warn(message: string, error?: unknown): void
  error(message: string, error?: unknown): void
  /** The last `count` warnings and errors of the file (and its archive), oldest first, redacted again. */
  problems(count: number): Promise<string[]>
  /** The log's folder and file. */
  readonly folder: string
  readonly file: string
}

const LOG_FILE_NAME = 'main.log'
/** What electron-log's default rotation renames a full file to (one archive, replaced each time). */
const LOG_ARCHIVE_NAME = 'main.old.log'
/** A file this big is archived and a new one started: with the archive, at most about 2 MB on disk. */
export const LOG_MAX_BYTES = 1024 * 1024
/** An entry's first line: `[2025-01-31 12:00:00.000] [error] …`. */
const ENTRY_START = /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}\] \[(\w+)\]/
/** What one problem brings into the diagnostics: enough of a stack to place it, not a page. */
const PROBLEM_LINES = 6
const PROBLEM_CHARACTERS = 1_200

export interface AppLogOptions {
  folder: string
  /** Applied to every entry before it is written (the tokens main knows, credentials in headers). */
  redact: Redact
  /** Also write entries to the console (development); the file is always written. */
  console: boolean
}

let logs = 0

/** The text of an entry: what was logged, objects and errors inspected on one level of detail. */
function entryText(data: unknown[]): string {
  return formatWithOptions({ depth: 4, breakLength: Infinity, colors: false }, ...data)
}

export function createAppLog({ folder, redact, console: toConsole }: AppLogOptions): AppLog {
  const file = join(folder, LOG_FILE_NAME)
  // A logger of its own (not electron-log's default one), so nothing else configures or reads it.
  const logger = nodeLog.create({ logId: `catalog-desk-${process.pid}-${++logs}` })
  logger.transports.file.resolvePathFn = () => file
  logger.transports.file.maxSize = LOG_MAX_BYTES
  logger.transports.file.level = 'info'
  logger.transports.file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}] [{level}] {text}'
  logger.transports.console.level = toConsole ? 'info' : false
  // The console of the moment (electron-log keeps the one it found when it loaded).
  logger.transports.console.writeFn = ({ message }) => {
    const write =
      message.level === 'error' ? console.error : message.level === 'warn' ? console.warn : console.info
    write(...message.data)
  }
  // Before any transport: the entry becomes one redacted text.
  logger.hooks.push((message) => ({ ...message, data: [redact(entryText(message.data))] }))

  const withError = (message: string, error: unknown) => (error === undefined ? [message] : [message, error])
  return {
    folder,
    file,
    info: (message) => logger.info(message),
    warn: (message, error) => logger.warn(...withError(message, error)),
    error: (message, error) => logger.error(...withError(message, error)),
    async problems(count) {
      const entries: string[] = []
      for (const name of [LOG_ARCHIVE_NAME, LOG_FILE_NAME]) {
        let text: string
        try {
          text = await readFile(join(folder, name), 'utf8')
        } catch {
          continue
        }
        entries.push(...problemEntries(text))
      }
      return entries.slice(-count).map(redact)
    },
  }
}

/** The warnings and errors of a log's text, each with the lines that follow it (a stack), bounded. */
export function problemEntries(text: string): string[] {
  const found: string[] = []
  let current: string[] | undefined
  const close = () => {
    if (!current) return
    const entry = current.slice(0, PROBLEM_LINES).join('\n')
    found.push(entry.length > PROBLEM_CHARACTERS ? `${entry.slice(0, PROBLEM_CHARACTERS - 1)}…` : entry)
    current = undefined
  }
  for (const line of text.split(/\r?\n/)) {
    const start = ENTRY_START.exec(line)
    if (start) {
      close()
      if (start[1] === 'error' || start[1] === 'warn') current = [line]
    } else if (current && line !== '') {
      current.push(line)
    }
  }
  close()
  return found
}
