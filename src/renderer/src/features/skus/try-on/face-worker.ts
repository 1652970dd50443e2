/// <reference lib="webworker" />
import { Human, type Config, type FaceResult } from '@vladmandic/human'
import { messageOf } from '#shared/error-message.ts'
import type { FaceLandmarks, MeshPoint } from '#shared/try-on/face-landmarks.ts'
import type { FromFaceWorker, ToFaceWorker } from './face-messages.ts'

/**
 * The face-landmark worker (issue #39; see face-messages.ts for what the two sides say, and
 * docs/decisions.md on the model): @vladmandic/human's face detector, mesh and iris models on
 * tfjs's WebAssembly backend, everything fetched from the app's own origin (face-model/, copied
 * there by the build), nothing kept in IndexedDB, nothing evaluated from strings.
 */

const scope = self as unknown as DedicatedWorkerGlobalScope

/** human merges what it is given into its defaults; its types ask for whole sections. */
type Sections<T> = { [K in keyof T]?: T[K] extends object ? Sections<T[K]> : T[K] }

/** The models the configuration below turns on, as human names them (and their files). */
const MODELS = ['blazeface', 'facemesh', 'iris'] as const
/** tfjs's WebAssembly runtime: it takes the SIMD build where the browser has SIMD. */
const WASM_FILES = ['tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm.wasm']

function configuration(folder: string): Sections<Config> {
  return {
    backend: 'wasm',
    // tfjs's .wasm files and the models, from the page's origin: human's defaults are a CDN.
    wasmPath: folder,
    wasmPlatformFetch: false,
    modelBasePath: folder,
    // Else each model is saved to (and read from) IndexedDB: the app's files are the one source.
    cacheModels: false,
    // human's warm-up decodes a data: URL with fetch(), which connect-src 'self' refuses.
    warmup: 'none',
    // Stills are searched afresh; a camera frame asks for the cache itself (see `detect`).
    cacheSensitivity: 0,
    filter: { enabled: false },
    debug: false,
    face: {
      enabled: true,
      detector: { rotation: true, maxDetected: 1 },
      mesh: { enabled: true },
      iris: { enabled: true },
      attention: { enabled: false },
      emotion: { enabled: false },
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  }
}

/** Which of `files` the folder does not serve, and what it answers instead; undefined if all are there. */
async function notServed(folder: string, files: string[]): Promise<string | undefined> {
  for (const file of files) {
    const answer = await fetch(new URL(file, folder)).catch((error: unknown) => messageOf(error))
    if (typeof answer === 'string') return `${file}: ${answer}`
    if (!answer.ok) return `${file}: HTTP ${answer.status}`
  }
  return undefined
}

/** Starts the runtime and loads the three models; throws, in words, when any of it fails. */
async function load(folder: string): Promise<Human> {
  const human = new Human(configuration(folder) as Partial<Config>)
  // human logs a failure here and goes on with another backend: it is checked instead.
  await human.init()
  if (human.tf.getBackend() !== 'wasm') {
    const missing = await notServed(folder, WASM_FILES)
    throw new Error(`its WebAssembly runtime did not start (${missing ?? `from ${folder}`})`)
  }
  await human.load()
  // human logs a model that did not load and keeps it as if it had: its own stats tell.
  const loaded = human.models.stats().modelStats.flatMap((model) => (model.loaded ? [model.name] : []))
  const failed = MODELS.filter((model) => !loaded.includes(model))
  if (failed.length > 0) {
    const files = failed.flatMap((model) => [`${model}.json`, `${model}.bin`])
    throw new Error((await notServed(folder, files)) ?? `${failed.join(', ')} could not be read`)
  }
  return human
}

/** human's face as the try-on reads it; undefined without the irises (too small a face). */
function landmarksOf(face: FaceResult, width: number, height: number): FaceLandmarks | undefined {
  if (face.mesh.length < 478) return undefined
  const mesh = face.mesh.map(([x, y, z]): MeshPoint => [x, y, z ?? 0])
  const { roll, yaw, pitch } = face.rotation?.angle ?? { roll: 0, yaw: 0, pitch: 0 }
  return { width, height, mesh, rotation: { roll, yaw, pitch } }
}

let model: Promise<Human> | undefined

async function detect(bitmap: ImageBitmap, frame: boolean): Promise<FaceLandmarks | undefined> {
  if (!model) throw new Error('the model was not asked to load')
  const human = await model
  // A camera frame may reuse the last frame's face box when the two look alike (human's cache);
  // a still photo never does, whatever came before it.
  const result = await human.detect(bitmap, { cacheSensitivity: frame ? 0.7 : 0 })
  if (result.error) throw new Error(result.error)
  const face = result.face[0]
  return face && landmarksOf(face, bitmap.width, bitmap.height)
}

function post(message: FromFaceWorker) {
  scope.postMessage(message)
}

scope.onmessage = async ({ data }: MessageEvent<ToFaceWorker>) => {
  const { id } = data
  try {
    if (data.type === 'load') {
      const started = performance.now()
      model ??= load(data.folder)
      await model
      post({ type: 'loaded', id, ms: performance.now() - started })
    } else if (data.type === 'detect') {
      try {
        post({ type: 'detected', id, face: await detect(data.bitmap, data.frame) })
      } finally {
        data.bitmap.close()
      }
    } else {
      data.bitmap.close()
      post({ type: 'echoed', id })
    }
  } catch (error) {
    post({ type: 'failed', id, reason: messageOf(error), loading: data.type === 'load' })
  }
}
