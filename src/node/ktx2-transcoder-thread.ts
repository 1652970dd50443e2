import { Worker } from 'node:worker_threads'
import { formatBytes } from '#shared/byte-size.ts'
import { messageOf } from '#shared/error-message.ts'
import type { TranscodedTexture } from '#shared/ipc.ts'
import { plural } from '#shared/plural.ts'
import { MODEL_TEXTURE_BUDGET_BYTES, readKtx2Header } from './ktx2-header.ts'
import type { FromWorker, ToWorker } from './ktx2-transcoder-worker.ts'
import { transferable } from './transferable.ts'

/**
 * The preview's KTX2 textures, transcoded for main on a thread of its own
 * (ktx2-transcoder-worker.ts), within budgets counted before anything is decoded.
 *
 * - Each texture's header is read here first (ktx2-header.ts): one that would transcode to more
 *   than the budget a texture, or take its model past the budget a model, is refused at once, in
 *   words that name the budget, and never reaches the transcoder. A worker's `resourceLimits` would
 *   not do: they bound its JavaScript heap, not the WebAssembly memory Basis works in nor the
 *   pixels' ArrayBuffers.
 * - The transcoding runs on the thread, so main's event loop answers IPC and windows meanwhile. The
 *   bytes go to it and the pixels come back transferred, not copied.
 * - Textures go to the thread one at a time, each with a time limit: one that takes longer ends the
 *   thread (the only way to stop WebAssembly at work), fails with a message saying so, and the next
 *   texture starts a new thread. So does one that crashes it.
 * - Idle for a while, the thread is ended: the memory WebAssembly grew to for a large texture is
 *   never given back otherwise. Idle or not, it keeps no process alive.
 *
 * A model is what the page names a "preview load": it reads each model it shows with an id of its
 * own (a random UUID) and names it with each texture, and its textures' costs are added up under
 * it. That trusts the page for the grouping, which is the page's own code; the data it reads is
 * what is not trusted, and a page that named every texture a model of its own would still get
 * each one within the budget a texture, one at a time.
 */
export interface TextureTranscoder {
  /**
   * The texture as RGBA pixels, or a rejection whose message says why not. `bytes` are
   * transferred to the thread (the caller's array is empty afterwards).
   */
  transcode(bytes: Uint8Array, model: string): Promise<TranscodedTexture>
  /** Ends the thread (a texture it was transcoding fails); the next texture starts another. */
  close(): Promise<void>
}

export interface TextureTranscoderOptions {
  /** The worker's module: ktx2-transcoder-worker.ts unless told (tests give one that misbehaves). */
  workerFile?: string | URL
  /** How long one texture may take on the thread. */
  timeoutMs?: number
  /** How long an idle thread is kept before it is ended. */
  idleMs?: number
  /** RGBA bytes a model's textures may transcode to together. */
  modelBudget?: number
}

/**
 * One texture may take this long. Our own choice: the largest the budget lets through (4,096² with
 * every level) takes about a second on the computer this was written on; twenty leaves room for a
 * slow computer.
 */
const TRANSCODE_TIMEOUT_MS = 20_000

/** An idle thread is ended after this long; starting one (compiling Basis) takes a tenth of a second. */
const IDLE_MS = 30_000

/** Models whose textures are counted at once: the preview shows one, and a few are on their way. */
const MODELS_COUNTED = 32

interface Job {
  id: number
  bytes: Uint8Array<ArrayBuffer>
  model: string
  cost: number
  resolve(texture: TranscodedTexture): void
  reject(error: Error): void
}

interface Running {
  worker: Worker
  /** Basis is compiled: a texture's clock runs from then. */
  ready: boolean
  stopped: boolean
}

export function createTextureTranscoder(options: TextureTranscoderOptions = {}): TextureTranscoder {
  const timeoutMs = options.timeoutMs ?? TRANSCODE_TIMEOUT_MS
  const idleMs = options.idleMs ?? IDLE_MS
  const modelBudget = options.modelBudget ?? MODEL_TEXTURE_BUDGET_BYTES
  /** What each model's textures cost so far, the models counted longest ago first. */
  const spent = new Map<string, number>()
  const queue: Job[] = []
  let file: Promise<string | URL> | undefined
  let current: Running | undefined
  /** The texture on the thread, and its clock once the thread is ready. */
  let active: { job: Job; timer?: NodeJS.Timeout } | undefined
  let idle: NodeJS.Timeout | undefined
  let jobs = 0

  /** Adds `cost` to the model's textures, or says why not (the model's budget) without adding it. */
  function reserve(model: string, cost: number): void {
    const before = spent.get(model) ?? 0
    if (before + cost > modelBudget) {
      throw new Error(
        `the model's KTX2 textures come to ${formatBytes(before + cost)} as pixels with this one (${formatBytes(cost)}), over the ${formatBytes(modelBudget)} the preview transcodes a model`,
      )
    }
    spent.delete(model)
    spent.set(model, before + cost)
    if (spent.size > MODELS_COUNTED) spent.delete(spent.keys().next().value!)
  }

  /** Gives back what a texture that was not transcoded had reserved. */
  function release(job: Job): void {
    const left = (spent.get(job.model) ?? 0) - job.cost
    if (spent.has(job.model)) spent.set(job.model, Math.max(0, left))
  }

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
    const worker = new Worker(path, { name: 'KTX2 transcoder' })
    const self: Running = { worker, ready: false, stopped: false }
    worker.unref()
    worker.on('message', (message: FromWorker) => receive(self, message))
    worker.on('messageerror', () => stop(self, 'a message from it could not be read'))
    worker.on('error', (error: Error & { code?: string }) =>
      stop(
        self,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'it ran out of memory' : `it failed: ${messageOf(error)}`,
      ),
    )
    // After an 'error' this changes nothing; alone, the worker ended itself.
    worker.on('exit', (code) => stop(self, `it ended unexpectedly, exit code ${code}`))
    return self
  }

  /** Ends the thread; the texture on it fails with `reason`, and the next one starts a new thread. */
  function stop(self: Running, reason: string): Promise<number> | undefined {
    if (self.stopped) return undefined
    self.stopped = true
    if (current === self) current = undefined
    if (active) {
      const { job } = active
      settle()
      release(job)
      job.reject(new Error(`the KTX2 transcoder stopped (${reason})`))
    }
    const ended = self.worker.terminate()
    next()
    return ended
  }

  /** Ends the texture on the thread: its clock stopped, the thread free for the next. */
  function settle(): Job | undefined {
    if (!active) return undefined
    const { job, timer } = active
    clearTimeout(timer)
    active = undefined
    return job
  }

  function receive(self: Running, message: FromWorker) {
    // A thread already ended may still have spoken: its texture has failed, the next one is elsewhere.
    if (self.stopped) return
    if (message.type === 'ready') {
      self.ready = true
      if (active) startClock(self)
      return
    }
    if (active?.job.id !== message.job) return
    const job = settle()!
    if (message.type === 'done') job.resolve(message.texture)
    else {
      release(job)
      job.reject(new Error(message.message))
    }
    next()
  }

  function startClock(self: Running) {
    if (!active) return
    const limit = plural(timeoutMs / 1000, 'second')
    active.timer = setTimeout(
      () => stop(self, `the texture took longer than ${limit}, the most one may take`),
      timeoutMs,
    )
    // The worker, busy, keeps the process alive; the clock needs not.
    active.timer.unref()
  }

  /** Sends the next texture to the thread, when it is free; idle, the thread is let go after a while. */
  function next() {
    if (active) return
    const job = queue.shift()
    if (!job) {
      current?.worker.unref()
      clearTimeout(idle)
      idle = setTimeout(() => {
        if (current && !active) void stop(current, 'it was idle')
      }, idleMs)
      idle.unref()
      return
    }
    clearTimeout(idle)
    active = { job }
    void thread().then(
      (self) => {
        if (active?.job !== job) return
        self.worker.ref()
        if (self.ready) startClock(self)
        const message: ToWorker = { type: 'transcode', job: job.id, bytes: job.bytes }
        self.worker.postMessage(message, [job.bytes.buffer])
      },
      (error: unknown) => {
        settle()
        release(job)
        job.reject(new Error(`the KTX2 transcoder could not start: ${messageOf(error)}`, { cause: error }))
        next()
      },
    )
  }

  return {
    async transcode(bytes, model) {
      const { bytes: cost } = readKtx2Header(bytes)
      reserve(model, cost)
      return new Promise<TranscodedTexture>((resolve, reject) => {
        queue.push({ id: jobs++, bytes: transferable(bytes), model, cost, resolve, reject })
        next()
      })
    },
    async close() {
      clearTimeout(idle)
      if (current) await stop(current, 'it was closed')
    },
  }
}

/**
 * The worker's file. Run as TypeScript (the unit tests, the browser tests' harness, Node's type
 * stripping), it is the source beside this one. Bundled into main, this module is JavaScript in
 * out/main, and electron-vite's `?modulePath` bundles the worker as a file of its own there and
 * gives its path (the import is only reached, so only resolved, in the bundle).
 */
async function workerFile(): Promise<string | URL> {
  if (import.meta.url.endsWith('.ts')) return new URL('./ktx2-transcoder-worker.ts', import.meta.url)
  const { default: path } = await import('./ktx2-transcoder-worker.ts?modulePath')
  return path
}
