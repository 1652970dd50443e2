import { parentPort } from 'node:worker_threads'
import { inspectModel } from '#shared/asset-checks/inspect-model.ts'
import type { AssetOutcome } from '#shared/asset-checks/results.ts'
import { messageOf } from '#shared/error-message.ts'

/**
 * The thread that reads models for main (started by model-inspection-thread.ts): `inspectModel`,
 * the glTF-Validator included, runs here, so a large model's seconds of validation never hold up
 * main's event loop (IPC, windows). It fetches nothing: an external file a .gltf names is asked of
 * main, whose guarded fetcher is the one way the app downloads what data names.
 */

/** What main sends. The bytes are transferred, not copied. */
export type ToWorker =
  | {
      type: 'inspect'
      job: number
      url: string
      /** `ModelInspectionOptions` without the loader, which stays in main. */
      base: string
      maxBytes: number
      maxExternalFiles: number
      bytes: Uint8Array
    }
  | { type: 'loaded'; request: number; bytes: Uint8Array }
  | { type: 'load-failed'; request: number; message: string }

/** What the worker sends: that it is ready, a request for an external file, or a model's outcome. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'load'; job: number; request: number; url: string; maxBytes: number }
  | { type: 'done'; job: number; outcome: AssetOutcome }
  | { type: 'failed'; job: number; message: string }

const port = parentPort
if (!port) throw new Error('model-inspection-worker.ts runs as a worker thread, not as a module of its own.')

/** External files asked of main and not answered yet, by request. */
const loads = new Map<number, { resolve(bytes: Uint8Array): void; reject(error: Error): void }>()
let requests = 0

const send = (message: FromWorker) => port.postMessage(message)

port.on('message', (message: ToWorker) => {
  if (message.type === 'inspect') {
    void inspect(message)
    return
  }
  const waiting = loads.get(message.request)
  loads.delete(message.request)
  if (message.type === 'loaded') waiting?.resolve(message.bytes)
  // The fetcher's words, which inspectModel puts in its `external-file` problem.
  else waiting?.reject(new Error(message.message))
})

async function inspect(job: Extract<ToWorker, { type: 'inspect' }>): Promise<void> {
  try {
    const outcome = await inspectModel(job.url, job.bytes, {
      url: job.base,
      maxBytes: job.maxBytes,
      maxExternalFiles: job.maxExternalFiles,
      loadExternal: (url, maxBytes) =>
        new Promise((resolve, reject) => {
          const request = requests++
          loads.set(request, { resolve, reject })
          send({ type: 'load', job: job.job, request, url, maxBytes })
        }),
    })
    send({ type: 'done', job: job.job, outcome })
  } catch (error) {
    // inspectModel turns what it reads into problems; this is a fault of its own.
    send({ type: 'failed', job: job.job, message: messageOf(error) })
  }
}

// Its modules are loaded and it listens: from now on, main counts its time on each model.
send({ type: 'ready' })
