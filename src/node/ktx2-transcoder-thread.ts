import { formatBytes } from '#shared/byte-size.ts'
import { messageOf } from '#shared/error-message.ts'
import type { TranscodedTexture } from '#shared/ipc.ts'
import { MODEL_TEXTURE_BUDGET_BYTES, readKtx2Header } from './ktx2-header.ts'
import type { FromWorker, ToWorker } from './ktx2-transcoder-worker.ts'
import { transferable } from './transferable.ts'
import { createWorkerThread } from './worker-thread.ts'

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
 *   never given back otherwise. Idle or not, it keeps no process alive. The thread's life, shared
 *   with the glTF-Validator's, is worker-thread.ts.
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
  bytes: Uint8Array<ArrayBuffer>
  model: string
  cost: number
  resolve(texture: TranscodedTexture): void
  reject(error: Error): void
}

export function createTextureTranscoder(options: TextureTranscoderOptions = {}): TextureTranscoder {
  const timeoutMs = options.timeoutMs ?? TRANSCODE_TIMEOUT_MS
  const modelBudget = options.modelBudget ?? MODEL_TEXTURE_BUDGET_BYTES
  /** What each model's textures cost so far, the models counted longest ago first. */
  const spent = new Map<string, number>()
  const queue: Job[] = []
  /** A texture is on the thread (or on its way there). */
  let busy = false
  const thread = createWorkerThread<ToWorker, FromWorker>({
    name: 'KTX2 transcoder',
    file: () => options.workerFile ?? workerFile(),
    timeoutMs,
    idleMs: options.idleMs ?? IDLE_MS,
    unstarted: (error) =>
      new Error(`the KTX2 transcoder could not start: ${messageOf(error)}`, { cause: error }),
    stopped: (why) => new Error(`the KTX2 transcoder stopped (${why})`),
    words: {
      failed: (message) => `it failed: ${message}`,
      exited: (code) => `it ended unexpectedly, exit code ${code}`,
      overran: (limit) => `the texture took longer than ${limit}, the most one may take`,
    },
  })

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

  /**
   * Sends the next texture to the thread once it is free: one at a time, so a texture's clock
   * counts its own transcoding, never a wait behind another's.
   */
  function next() {
    if (busy) return
    const job = queue.shift()
    if (!job) return
    busy = true
    void thread
      .run<TranscodedTexture>({
        message: (id) => ({ type: 'transcode', job: id, bytes: job.bytes }),
        transfer: [job.bytes.buffer],
        receive(message, running) {
          if (message.type === 'done') running.resolve(message.texture)
          else running.reject(new Error(message.message))
        },
      })
      .then(job.resolve, (error: Error) => {
        release(job)
        job.reject(error)
      })
      .finally(() => {
        busy = false
        next()
      })
  }

  return {
    async transcode(bytes, model) {
      const { bytes: cost } = readKtx2Header(bytes)
      reserve(model, cost)
      return new Promise<TranscodedTexture>((resolve, reject) => {
        queue.push({ bytes: transferable(bytes), model, cost, resolve, reject })
        next()
      })
    },
    close: () => thread.close(),
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
