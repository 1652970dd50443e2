import { setTimeout as delay } from 'node:timers/promises'

// The scripted worker, 1.2 s slow to start, as one that loads large modules is on a
// slow computer. A port holds the messages sent to it meanwhile.
await delay(1_200)
await import('./scripted-worker.ts')
