import { parentPort } from 'node:worker_threads'
import type { ToWorker } from '#node/ktx2-transcoder-worker.ts'

// The KTX2 transcoder's worker, except that a texture 4,096 pixels wide is never answered, as a
// transcode that never ends would not be: the thread stays busy with it until main gives up. Its
// listener is wrapped as it is attached (a port holds its messages until then).

const port = parentPort!
const on = port.on.bind(port)
port.on = ((event: 'message', listener: (message: ToWorker) => void) =>
  on(event, (message: ToWorker) => {
    const width = new DataView(message.bytes.buffer, message.bytes.byteOffset).getUint32(20, true)
    if (width !== 4096) listener(message)
  })) as typeof port.on

await import('#node/ktx2-transcoder-worker.ts')
