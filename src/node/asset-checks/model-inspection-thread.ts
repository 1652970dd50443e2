import type { inspectModel, ModelInspectionOptions } from '#shared/asset-checks/inspect-model.ts'
import type { AssetOutcome } from '#shared/asset-checks/results.ts'
import { messageOf } from '#shared/error-message.ts'
import { transferable } from '../transferable.ts'
import { createWorkerThread, type RunningJob } from '../worker-thread.ts'
import type { FromWorker, ToWorker } from './model-inspection-worker.ts'

/**
 * `inspectModel` on a thread of its own (model-inspection-worker.ts), for main: the
 * glTF-Validator reads a model to its end without giving timers or I/O a turn (half a second for a
 * 50 MB mesh on the computer this was written on, more on a slower one), and on main's event loop
 * that would freeze every IPC call and window event meanwhile. The CLI has no event loop to keep
 * free and validates in-process.
 *
 * One thread, started on the first model and kept (starting one costs more than most models take to
 * validate): models go to it as they come and interleave there while each waits for a file. Idle, it
 * keeps no process alive. A .gltf's external files are still fetched here, in main, by the loader the
 * caller gives (the guarded fetcher), at the worker's request: the worker fetches nothing.
 *
 * A thread that crashes or hangs is a per-model error, "The glTF-Validator stopped: …", for each model
 * it was reading, never a check that does not end; the next model starts a new one (the thread's
 * life, shared with the KTX2 transcoder's, is worker-thread.ts).
 */
export interface ModelInspectionThread {
  /**
   * `inspectModel` on the thread. `bytes` are transferred to it, not copied: the caller's array is
   * empty afterwards (as are the external files' arrays its loader returns). Rejects when the
   * thread stops (the checker then says so as the model's outcome).
   */
  inspectModel: typeof inspectModel
  /** Stops the thread (models it is reading fail); the next model starts another. */
  close(): Promise<void>
}

export interface ModelInspectionThreadOptions {
  /** The worker's module: model-inspection-worker.ts unless told (tests give one that misbehaves). */
  workerFile?: string | URL
  /** How long the thread may take over one model, not counting its waits for external files. */
  timeoutMs?: number
}

/**
 * One model's validation may take this long before the thread counts as hung. Our own choice: the
 * largest model the budgets let through (50 MB, an uncompressed mesh of 2.8 million triangles)
 * validated in half a second on the computer this was written on; a minute leaves room for a slow
 * computer, models read at the same time, and files the validator finds harder.
 */
const VALIDATOR_TIMEOUT_MS = 60_000

export function createModelInspectionThread(
  options: ModelInspectionThreadOptions = {},
): ModelInspectionThread {
  const timeoutMs = options.timeoutMs ?? VALIDATOR_TIMEOUT_MS
  // Models go to the thread as they come and interleave there while each waits for a file.
  const thread = createWorkerThread<ToWorker, FromWorker>({
    name: 'glTF-Validator',
    file: () => options.workerFile ?? workerFile(),
    timeoutMs,
    unstarted: (error) =>
      new Error(`The glTF-Validator could not start: ${messageOf(error)}`, { cause: error }),
    stopped: (why) => new Error(`The glTF-Validator stopped: ${why}.`),
    words: {
      failed: (message) => `it failed (${message})`,
      exited: (code) => `it ended unexpectedly (exit code ${code})`,
      overran: (limit, overran, job) =>
        overran === job
          ? `it took longer than ${limit} over this model`
          : `another model it was reading took longer than ${limit}`,
    },
  })

  async function inspect(
    url: string,
    bytes: Uint8Array,
    inspection: ModelInspectionOptions,
  ): Promise<AssetOutcome> {
    const sent = transferable(bytes)
    /** External files asked for and not answered yet: the thread's time on the model stops meanwhile. */
    let loading = 0
    let asked = 0

    /** Fetches an external file the worker asks for, with the caller's loader, and hands it over. */
    async function relay(
      job: RunningJob<ToWorker, AssetOutcome>,
      { request, url, maxBytes }: FromWorker & { type: 'load' },
    ) {
      if (loading++ === 0) job.pause()
      let answer: ToWorker
      const transfer: ArrayBuffer[] = []
      try {
        // The worker counts and limits these itself; main keeps the limits too, being the one that
        // fetches on the word of a thread that reads hostile data.
        if (++asked > inspection.maxExternalFiles)
          throw new Error(`a model may name at most ${inspection.maxExternalFiles} external files.`)
        const file = transferable(await inspection.loadExternal(url, Math.min(maxBytes, inspection.maxBytes)))
        answer = { type: 'loaded', request, bytes: file }
        transfer.push(file.buffer)
      } catch (error) {
        answer = { type: 'load-failed', request, message: messageOf(error) }
      }
      // A model the thread no longer reads (it stopped meanwhile) needs no answer: these do nothing.
      if (--loading === 0) job.resume()
      job.post(answer, transfer)
    }

    return thread.run<AssetOutcome>({
      message: (job) => ({
        type: 'inspect',
        job,
        url,
        base: inspection.url,
        maxBytes: inspection.maxBytes,
        maxExternalFiles: inspection.maxExternalFiles,
        bytes: sent,
      }),
      transfer: [sent.buffer],
      receive(message, job) {
        if (message.type === 'load') void relay(job, message)
        else if (message.type === 'done') job.resolve(message.outcome)
        else job.reject(new Error(`The model could not be read: ${message.message}`))
      },
    })
  }

  return { inspectModel: inspect, close: () => thread.close() }
}

/** The one thread main's asset checks share, started on the first model they read. */
export const sharedInspectionThread: ModelInspectionThread = createModelInspectionThread()

/**
 * The worker's file. Run as TypeScript (the unit tests, the browser tests' harness, Node's type
 * stripping), it is the source beside this one. Bundled into main, this module is JavaScript in
 * out/main, and electron-vite's `?modulePath` bundles the worker as a file of its own there and
 * gives its path (the import is only reached, so only resolved, in the bundle).
 */
async function workerFile(): Promise<string | URL> {
  if (import.meta.url.endsWith('.ts')) return new URL('./model-inspection-worker.ts', import.meta.url)
  const { default: path } = await import('./model-inspection-worker.ts?modulePath')
  return path
}
