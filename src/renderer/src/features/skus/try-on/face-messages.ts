import type { FaceLandmarks } from '#shared/try-on/face-landmarks.ts'

/**
 * What the page and the face-landmark worker say to each other (face-client.ts on the page,
 * face-worker.ts in the worker). The worker runs the model (@vladmandic/human on tfjs's WebAssembly
 * backend): its loading and every detection stay off the page's thread. Each picture goes to the
 * worker as an ImageBitmap; each answer names the request it answers.
 */

export type ToFaceWorker =
  /** Loads the model from the app's own origin (`folder`: the face-model/ address beside the page). */
  | { type: 'load'; id: number; folder: string }
  /**
   * Finds the face on a picture. `frame`: a camera frame, which may reuse the face's box from the
   * previous frame when the two look alike (cheaper); a still photo is always searched afresh.
   */
  | { type: 'detect'; id: number; bitmap: ImageBitmap; frame: boolean }
  /** Only the round trip (the picture sent, closed, answered): the benchmark's baseline. */
  | { type: 'echo'; id: number; bitmap: ImageBitmap }

export type FromFaceWorker =
  /** The model is ready; `ms`: how long it took, the runtime and the three models' files. */
  | { type: 'loaded'; id: number; ms: number }
  /** A detection's answer: no `face` when none was found. */
  | { type: 'detected'; id: number; face?: FaceLandmarks }
  | { type: 'echoed'; id: number }
  /** Why a request failed, in words (the page adds what failed). */
  | { type: 'failed'; id: number; reason: string; loading: boolean }
