import { shallowRef } from 'vue'
import { systemClock } from '#shared/sync/system-clock.ts'

export interface LogLine {
  id: number
  at: number
  text: string
}

const LOG_LINES_KEPT = 300

/** The Sync page's live log: its latest lines, each with an id the list can key on. */
export function useRunLog() {
  const log = shallowRef<LogLine[]>([])
  let nextId = 0

  function addLog(text: string, at = systemClock.now()) {
    log.value = [...log.value, { id: nextId++, at, text }].slice(-LOG_LINES_KEPT)
  }

  return { log, addLog }
}
