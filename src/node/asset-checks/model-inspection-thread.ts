import { Worker } from 'node:worker_threads'
import type { inspectModel, ModelInspectionOptions } from '#shared/asset-checks/inspect-model.ts'
import type { AssetOutcome } from '#shared/asset-checks/results.ts'
import { messageOf } from '#shared/error-message.ts'
import { plural } from '#shared/plural.ts'
import { transferable } from '../transferable.ts'
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
 * it was reading, never a check that does not end; the next model starts a new one.
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

interface Job {
  id: number
  inspection: ModelInspectionOptions
  resolve(outcome: AssetOutcome): void
  reject(error: Error): void
  /** The thread's time on this model, stopped while an external file is being fetched. */
  clock: Clock
  /** External files asked for and not answered yet. */
  loading: number
  asked: number
}

interface Running {
  worker: Worker
  jobs: Map<number, Job>
  /** Its modules loaded (the validator's among them): models' clocks run from then. */
  ready: boolean
  stopped: boolean
}

export function createModelInspectionThread(
  options: ModelInspectionThreadOptions = {},
): ModelInspectionThread {
  const timeoutMs = options.timeoutMs ?? VALIDATOR_TIMEOUT_MS
  let file: Promise<string | URL> | undefined
  let current: Running | undefined
  let jobs = 0

  async function thread(): Promise<Running> {
    file ??= (options.workerFile ? Promise.resolve(options.workerFile) : workerFile()).catch((error) => {
      file = undefined
      throw error
    })
    const path = await file
    current ??= spawn(path)
    return current
  }

  function spawn(path: string | URL): Running {
    const worker = new Worker(path, { name: 'glTF-Validator' })
    const self: Running = { worker, jobs: new Map(), ready: false, stopped: false }
    worker.unref()
    worker.on('message', (message: FromWorker) => receive(self, message))
    worker.on('messageerror', () => stop(self, () => 'a message from it could not be read'))
    worker.on('error', (error: Error & { code?: string }) =>
      stop(self, () =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? 'it ran out of memory'
          : `it failed (${messageOf(error)})`,
      ),
    )
    // After an 'error' this changes nothing; alone, the worker ended itself (process.exit).
    worker.on('exit', (code) => stop(self, () => `it ended unexpectedly (exit code ${code})`))
    return self
  }

  /** Fails every model the thread was reading, each with `reason(job)`, and ends the thread. */
  function stop(self: Running, reason: (job: Job) => string): Promise<number> | undefined {
    if (self.stopped) return undefined
    self.stopped = true
    if (current === self) current = undefined
    for (const job of self.jobs.values()) {
      job.clock.stop()
      job.reject(new Error(`The glTF-Validator stopped: ${reason(job)}.`))
    }
    self.jobs.clear()
    return self.worker.terminate()
  }

  function finish(self: Running, id: number): Job | undefined {
    const job = self.jobs.get(id)
    if (!job) return undefined
    self.jobs.delete(id)
    job.clock.stop()
    // Busy, the thread keeps the process alive like any work under way; idle, it does not.
    if (self.jobs.size === 0) self.worker.unref()
    return job
  }

  function receive(self: Running, message: FromWorker) {
    if (message.type === 'ready') {
      // Starting the thread is not reading a model, however slow this computer is at it.
      self.ready = true
      for (const job of self.jobs.values()) job.clock.resume()
    } else if (message.type === 'load') {
      const job = self.jobs.get(message.job)
      if (job) void relay(self, job, message)
    } else if (message.type === 'done') {
      finish(self, message.job)?.resolve(message.outcome)
    } else {
      finish(self, message.job)?.reject(new Error(`The model could not be read: ${message.message}`))
    }
  }

  /** Fetches an external file the worker asks for, with the caller's loader, and hands it over. */
  async function relay(self: Running, job: Job, { request, url, maxBytes }: FromWorker & { type: 'load' }) {
    if (job.loading++ === 0) job.clock.pause()
    let answer: ToWorker
    const transfer: ArrayBuffer[] = []
    try {
      // The worker counts and limits these itself; main keeps the limits too, being the one that
      // fetches on the word of a thread that reads hostile data.
      if (++job.asked > job.inspection.maxExternalFiles)
        throw new Error(`a model may name at most ${job.inspection.maxExternalFiles} external files.`)
      const bytes = transferable(
        await job.inspection.loadExternal(url, Math.min(maxBytes, job.inspection.maxBytes)),
      )
      answer = { type: 'loaded', request, bytes }
      transfer.push(bytes.buffer)
    } catch (error) {
      answer = { type: 'load-failed', request, message: messageOf(error) }
    }
    // A model the thread no longer reads (it stopped meanwhile) needs no answer.
    if (self.jobs.get(job.id) !== job) return
    if (--job.loading === 0) job.clock.resume()
    self.worker.postMessage(answer, transfer)
  }

  async function inspect(
    url: string,
    bytes: Uint8Array,
    inspection: ModelInspectionOptions,
  ): Promise<AssetOutcome> {
    let self: Running
    try {
      self = await thread()
    } catch (error) {
      throw new Error(`The glTF-Validator could not start: ${messageOf(error)}`, { cause: error })
    }
    const id = jobs++
    const sent = transferable(bytes)
    return new Promise<AssetOutcome>((resolve, reject) => {
      const limit = plural(timeoutMs / 1000, 'second')
      const clock = startClock(
        timeoutMs,
        () =>
          stop(self, (other) =>
            other === job
              ? `it took longer than ${limit} over this model`
              : `another model it was reading took longer than ${limit}`,
          ),
        self.ready,
      )
      const job: Job = { id, inspection, resolve, reject, clock, loading: 0, asked: 0 }
      self.jobs.set(id, job)
      self.worker.ref()
      const message: ToWorker = {
        type: 'inspect',
        job: id,
        url,
        base: inspection.url,
        maxBytes: inspection.maxBytes,
        maxExternalFiles: inspection.maxExternalFiles,
        bytes: sent,
      }
      try {
        self.worker.postMessage(message, [sent.buffer])
      } catch (error) {
        finish(self, id)
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    })
  }

  return {
    inspectModel: inspect,
    async close() {
      if (current) await stop(current, () => 'it was closed')
    },
  }
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

interface Clock {
  pause(): void
  resume(): void
  stop(): void
}

/**
 * Calls `expire` once `ms` have run, not counting the time between a pause and a resume; started
 * paused unless `running`.
 */
function startClock(ms: number, expire: () => void, running: boolean): Clock {
  let left = ms
  let since = 0
  let timer: NodeJS.Timeout | undefined
  const resume = () => {
    if (timer !== undefined) return
    since = performance.now()
    timer = setTimeout(expire, Math.max(0, left))
    // The worker, busy, keeps the process alive; the clock needs not.
    timer.unref()
  }
  const stop = () => {
    clearTimeout(timer)
    timer = undefined
  }
  if (running) resume()
  return {
    pause() {
      if (timer === undefined) return
      stop()
      left -= performance.now() - since
    },
    resume,
    stop,
  }
}
