import type { SyncClock } from '#shared/sync/ports.ts'
import { systemClock } from '#shared/sync/system-clock.ts'

/** The page's clock: the system clock (src/shared/sync/system-clock.ts), which runs anywhere. */
export const browserClock: SyncClock = systemClock
