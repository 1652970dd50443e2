import type { FaceLandmarks } from '#shared/try-on/face-landmarks.ts'
import type { FromFaceWorker, ToFaceWorker } from './face-messages.ts'

/**
 * The page's side of the face-landmark model (face-worker.ts runs it). One worker for the page,
 * started by the first call, so nothing loads until the try-on asks; the model is loaded once and
 * kept until `disposeFaceModel()`. A load that fails ends the worker, and the next call tries
 * again. Every call can be given an AbortSignal: the promise then rejects with the signal's reason
 * and the worker's late answer is dropped.
 */

export interface FaceCallOptions {
  signal?: AbortSignal
}

type Answer = Exclude<FromFaceWorker, { type: 'failed' }>
type Request = ToFaceWorker extends infer Message
  ? Message extends { id: number }
    ? Omit<Message, 'id'>
    : never
  : never

const LOAD_FAILED = 'The face model could not be loaded'

class FaceEngine {
  private readonly worker = new Worker(new URL('./face-worker.ts', import.meta.url), {
    type: 'module',
    name: 'Face landmarks',
  })
  private readonly pending = new Map<number, { resolve(answer: Answer): void; reject(error: Error): void }>()
  private requests = 0
  /** Resolves with the milliseconds the worker took to load the model. */
  readonly loaded: Promise<number>

  private readonly onBroken: () => void

  constructor(onBroken: () => void) {
    this.onBroken = onBroken
    this.worker.onmessage = ({ data }: MessageEvent<FromFaceWorker>) => {
      if (data.type === 'failed' && data.loading) return this.fail(`${LOAD_FAILED}: ${data.reason}`)
      const waiting = this.pending.get(data.id)
      this.pending.delete(data.id)
      if (data.type !== 'failed') waiting?.resolve(data)
      else waiting?.reject(new Error(`The face could not be looked for: ${data.reason}`))
    }
    // The worker's script itself did not load or run (an event, not an Error, with a message).
    this.worker.onerror = (event) => {
      event.preventDefault()
      this.fail(`${LOAD_FAILED}: its worker did not start (${event.message || 'no reason given'})`)
    }
    const folder = new URL('./face-model/', document.baseURI).href
    this.loaded = this.ask({ type: 'load', folder }).then((answer) =>
      answer.type === 'loaded' ? answer.ms : 0,
    )
  }

  ask(request: Request, transfer: Transferable[] = [], signal?: AbortSignal): Promise<Answer> {
    const id = ++this.requests
    return new Promise<Answer>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error)
      const abort = () => {
        this.pending.delete(id)
        reject(signal!.reason as Error)
      }
      signal?.addEventListener('abort', abort, { once: true })
      const done = () => signal?.removeEventListener('abort', abort)
      this.pending.set(id, {
        resolve: (answer) => (done(), resolve(answer)),
        reject: (error) => (done(), reject(error)),
      })
      this.worker.postMessage({ ...request, id } as ToFaceWorker, transfer)
    })
  }

  /** Ends the worker; whatever is still waiting is told `reason`. */
  fail(reason: string) {
    this.worker.terminate()
    this.onBroken()
    const waiting = [...this.pending.values()]
    this.pending.clear()
    for (const { reject } of waiting) reject(new Error(reason))
  }
}

let engine: FaceEngine | undefined

function started(): FaceEngine {
  const current: FaceEngine =
    engine ??
    new FaceEngine(() => {
      if (engine === current) engine = undefined
    })
  engine = current
  return current
}

/** Loads the model if it is not yet (e.g. when the try-on opens); resolves with the ms it took. */
export function loadFaceModel(): Promise<number> {
  return started().loaded
}

/**
 * The face on a still picture, or undefined when there is none. The picture is copied to the
 * worker: the caller keeps it, and closes it when done.
 */
export async function detectFace(
  bitmap: ImageBitmap,
  options: FaceCallOptions = {},
): Promise<FaceLandmarks | undefined> {
  const current = started()
  await current.loaded
  const answer = await current.ask({ type: 'detect', bitmap, frame: false }, [], options.signal)
  return answer.type === 'detected' ? answer.face : undefined
}

/**
 * The face on a camera frame (the video's current picture, at its own size), or undefined. Cheaper
 * than a still: when a frame looks like the one before, the face's box found then is used again.
 */
export async function detectFrame(
  frame: HTMLVideoElement | ImageBitmap,
  options: FaceCallOptions = {},
): Promise<FaceLandmarks | undefined> {
  const current = started()
  await current.loaded
  const bitmap = await createImageBitmap(frame)
  const answer = await current.ask({ type: 'detect', bitmap, frame: true }, [bitmap], options.signal)
  return answer.type === 'detected' ? answer.face : undefined
}

/**
 * What `detectFace` (or, with `frame`, `detectFrame`) costs without the detection: the picture sent
 * to the worker the same way and answered at once. The benchmark's baseline.
 */
export async function faceRoundTrip(bitmap: ImageBitmap, { frame = false } = {}): Promise<void> {
  const current = started()
  await current.loaded
  if (!frame) await current.ask({ type: 'echo', bitmap })
  else {
    const copy = await createImageBitmap(bitmap)
    await current.ask({ type: 'echo', bitmap: copy }, [copy])
  }
}

/** Ends the worker and frees the model (e.g. when the try-on closes); a later call loads it again. */
export function disposeFaceModel(): void {
  engine?.fail('The face model was closed.')
}
