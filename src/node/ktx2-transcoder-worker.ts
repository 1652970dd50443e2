import { parentPort } from 'node:worker_threads'
import { messageOf } from '#shared/error-message.ts'
import type { TranscodedTexture } from '#shared/ipc.ts'
import { loadBasis, transcodeKtx2 } from './ktx2-transcoder.ts'

/**
 * The thread that transcodes the preview's KTX2 textures for main (started by
 * ktx2-transcoder-thread.ts): a large texture's seconds of Basis work never hold up main's event
 * loop, and a texture that takes too long is stopped by ending this thread. Main sends one texture
 * at a time, already checked against the budgets from its header.
 */

/** What main sends. The bytes are transferred, not copied. */
export type ToWorker = { type: 'transcode'; job: number; bytes: Uint8Array }

/** What the worker sends: that it is ready, or a texture's pixels (transferred), or why not. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'done'; job: number; texture: TranscodedTexture }
  | { type: 'failed'; job: number; message: string }

const port = parentPort
if (!port) throw new Error('ktx2-transcoder-worker.ts runs as a worker thread, not as a module of its own.')

port.on('message', async ({ job, bytes }: ToWorker) => {
  let answer: FromWorker
  const transfer: ArrayBuffer[] = []
  try {
    const texture = await transcodeKtx2(bytes)
    // Each level is an array of its own (ktx2-transcoder.ts), so each buffer is handed over whole.
    for (const level of texture.levels) transfer.push(level.data.buffer as ArrayBuffer)
    answer = { type: 'done', job, texture }
  } catch (error) {
    answer = { type: 'failed', job, message: messageOf(error) }
  }
  port.postMessage(answer, transfer)
})

// The transcoder compiled before the first texture: main counts a texture's time from `ready` on.
// One that cannot load says so on every texture it is given (transcodeKtx2 loads it again).
void loadBasis()
  .catch(() => undefined)
  .then(() => port.postMessage({ type: 'ready' } satisfies FromWorker))
