import { parentPort } from 'node:worker_threads'
import type { ToWorker } from '#node/asset-checks/model-inspection-worker.ts'

// The model-inspection worker, except for models whose address asks it to misbehave: `/crash`
// throws (an uncaught exception ends the thread), `/exit` ends the thread with exit code 3,
// `/hang` never returns. The real worker's listener is wrapped as it is attached (a port holds its
// messages until then), so this acts on a model before the real one reads it.

function misbehave(message: ToWorker) {
  if (message.type !== 'inspect') return
  const path = new URL(message.url).pathname
  if (path.startsWith('/crash')) throw new Error('a fault of the kind a validator bug would be')
  if (path.startsWith('/exit')) process.exit(3)
  if (path.startsWith('/hang')) for (;;);
}

const port = parentPort!
const on = port.on.bind(port)
// The real worker attaches one listener, for 'message'.
port.on = ((event: 'message', listener: (message: ToWorker) => void) =>
  on(event, (message: ToWorker) => {
    misbehave(message)
    listener(message)
  })) as typeof port.on

await import('#node/asset-checks/model-inspection-worker.ts')
