import { sleep } from '../service/resend.ts'
import type { SyncClock } from './ports.ts'

/**
 * The clock of the computer it runs on: wall time, timers that end early on abort, Math.random.
 * The default wherever time is read (the page, main, the CLI); a test that needs time to move
 * passes a clock of its own instead.
 */
export const systemClock: SyncClock = {
  now: () => Date.now(),
  sleep,
  random: () => Math.random(),
}
