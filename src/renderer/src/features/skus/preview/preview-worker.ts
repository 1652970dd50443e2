/// <reference lib="webworker" />
import {
  ACESFilmicToneMapping,
  AgXToneMapping,
  LinearToneMapping,
  NeutralToneMapping,
  NoToneMapping,
  type ToneMapping,
} from 'three'
import type { TranscodedTexture } from '#shared/ipc.ts'
import { messageOf } from '#shared/error-message.ts'
import { ControlSurface } from './control-surface.ts'
import { disposeTexture, environmentTexture } from './environment.ts'
import { parseModel } from './model-file.ts'
import type { FromWorker, SurfaceSize, ToWorker, WorkerRequest } from './preview-messages.ts'
import { createPreviewScene, disposeObject, WebGLUnavailableError, type PreviewScene } from './scene.ts'
import type { ToneMappingCurve } from './tone-mapping.ts'
import type { FaceLandmarks } from '#shared/try-on/face-landmarks.ts'
import { fitFrame, placeInPose, project, sizeNote } from '#shared/try-on/fit.ts'
import type { Vector3Like } from './preview-settings.ts'

/**
 * The preview's worker: the scene, the model's decoding and every draw, off the page's thread
 * (see preview-messages.ts for why and for what the two sides say). One worker a preview: the
 * page ends it when the editor closes, and its WebGL context goes with it.
 */

const scope = self as unknown as DedicatedWorkerGlobalScope

const CURVES: Record<ToneMappingCurve, ToneMapping> = {
  neutral: NeutralToneMapping,
  aces: ACESFilmicToneMapping,
  agx: AgXToneMapping,
  linear: LinearToneMapping,
  none: NoToneMapping,
}

let scene: PreviewScene | undefined
/** The canvas the scene draws on, for the stills read from it. */
let drawingOn: OffscreenCanvas | undefined
let surface: ControlSurface | undefined
/** Messages taken from the page, counted as the page counts those it sent. */
let received = 0
let frames = 0
let modelInView: boolean | undefined
/** A frame is drawn and not on screen yet. */
let presenting = false
/** The latest model and environment asked for: one that comes later than a newer one is dropped. */
let latestModel = 0
let latestEnvironment = 0
/** The SKU's transform, kept for the try-on's fit, which carries it on a face. */
let transform: { position: Vector3Like; rotation: Vector3Like } = {
  position: { x: 0, y: 0, z: 0 },
  rotation: { x: 0, y: 0, z: 0 },
}
/** The face the model is tried on, while the view is the try-on. */
let face: FaceLandmarks | undefined
/** Said of a model or environment the page asked for something else in place of. */
const REPLACED = 'another was asked for since'

function post(message: FromWorker) {
  scope.postMessage(message)
}

/** Tells the page how far the drawing has come: it waits on this for "what I asked is on screen". */
function report() {
  const pending = presenting || (scene?.drawing() ?? false)
  post({ type: 'drawn', frames, change: received, pending, modelInView })
}

/** The page's answers to the worker's requests, by request id. */
const waiting = new Map<number, { resolve(value: ToWorker & { type: 'answer' }): void }>()
let requests = 0

/** A request without its envelope: what is asked. */
type Asked = {
  [Kind in WorkerRequest['kind']]: Omit<Extract<WorkerRequest, { kind: Kind }>, 'id' | 'type'>
}[WorkerRequest['kind']]

function ask(request: Asked): Promise<ToWorker & { type: 'answer' }> {
  const id = ++requests
  return new Promise((resolve, reject) => {
    waiting.set(id, {
      resolve: (answer) => (answer.error !== undefined ? reject(new Error(answer.error)) : resolve(answer)),
    })
    post({ type: 'request', id, ...request } as WorkerRequest)
  })
}

const fetchFile = async (url: string) => (await ask({ kind: 'file', url })).file!
const transcodeTexture = async (bytes: Uint8Array<ArrayBuffer>, load: string): Promise<TranscodedTexture> =>
  (await ask({ kind: 'transcode', bytes, load })).texture!

function start(canvas: OffscreenCanvas, size: ControlSurface) {
  drawingOn = canvas
  try {
    scene = createPreviewScene(canvas, size, {
      onRender: (count, inView) => {
        frames = count
        modelInView = inView
        // A frame drawn here reaches the screen after this task: said on the next animation
        // frame, once it is there (a test taking a screenshot on "drawn" must see it).
        presenting = true
        scope.requestAnimationFrame(() => {
          presenting = false
          report()
        })
      },
      onContextLost: () => post({ type: 'context-lost' }),
    })
  } catch (error) {
    const noWebGL = error instanceof WebGLUnavailableError
    post({ type: 'unavailable', noWebGL, reason: messageOf(error) })
  }
}

/** Places the model on the face (or back in the studio) and tells the page where it went. */
function place() {
  if (!scene) return
  if (!face) {
    scene.placeOnFace(undefined)
    scene.setTransform(transform.position, transform.rotation)
    return post({ type: 'placed' })
  }
  const bounds = scene.modelBounds()
  const fit = fitFrame(face, transform, bounds)
  scene.placeOnFace(fit)
  const [x, y] = project(fit, placeInPose(fit.model, [0, 0, 0]))
  post({
    type: 'placed',
    placement: {
      origin: [x, y],
      pixelsPerMetre: fit.pixelsPerMetre,
      width: bounds ? (bounds.max[0] - bounds.min[0]) * fit.model.scale * fit.pixelsPerMetre : 0,
      note: bounds && sizeNote(bounds),
    },
  })
}

/** Draws the scene now at `size` and hands its pixels over: the same drawing as on screen, kept as a picture. */
function still(id: number, size: SurfaceSize) {
  if (!scene || !surface || !drawingOn) return post({ type: 'still', id, error: 'no scene to draw' })
  surface.resize(size)
  scene.resize()
  scene.drawNow()
  const bitmap = drawingOn.transferToImageBitmap()
  scope.postMessage({ type: 'still', id, bitmap } satisfies FromWorker, [bitmap])
}

async function showModel(load: number, bytes: Uint8Array, address: string | undefined) {
  try {
    const loaded = await parseModel({ bytes, address, fetchFile, transcodeTexture })
    if (load !== latestModel || !scene) {
      disposeObject(loaded.scene)
      return post({ type: 'model-failed', load, reason: REPLACED })
    }
    scene.setModel(loaded.scene)
    if (face) place()
    const { decoders, extensions, files } = loaded
    post({ type: 'model-shown', load, reading: { decoders, extensions, files } })
    report()
  } catch (error) {
    post({ type: 'model-failed', load, reason: messageOf(error) })
  }
}

async function showEnvironment(load: number, bytes: Uint8Array) {
  try {
    const texture = await environmentTexture(bytes)
    if (load !== latestEnvironment || !scene) {
      disposeTexture(texture)
      return post({ type: 'environment-failed', load, reason: REPLACED })
    }
    const softened = scene.setEnvironment(texture)
    post({ type: 'environment-shown', load, softened })
    report()
  } catch (error) {
    post({ type: 'environment-failed', load, reason: messageOf(error) })
  }
}

function handle(message: ToWorker) {
  switch (message.type) {
    case 'start':
      surface = new ControlSurface(message.size)
      return start(message.canvas, surface)
    case 'answer':
      waiting.get(message.id)?.resolve(message)
      waiting.delete(message.id)
      return
    case 'resize':
      surface?.resize(message.size)
      return scene?.resize()
    case 'model':
      latestModel = message.load
      return void showModel(message.load, message.bytes, message.address)
    case 'environment':
      latestEnvironment = message.load
      return void showEnvironment(message.load, message.bytes)
    case 'transform':
      transform = { position: message.position, rotation: message.rotation }
      return face ? place() : scene?.setTransform(message.position, message.rotation)
    case 'face':
      face = message.face
      return place()
    case 'model-visible':
      return scene?.setModelVisible(message.visible)
    case 'still':
      return still(message.id, message.size)
    case 'tone-mapping':
      return scene?.setToneMapping(CURVES[message.curve])
    case 'intensity':
      return scene?.setIntensity(message.value)
    case 'shadow':
      return scene?.setShadow(message.shadow)
    case 'field-of-view':
      return scene?.setFieldOfView(message.degrees)
    case 'reset-view':
      return scene?.resetView()
    case 'orbit':
      return scene?.orbit(message.left, message.up)
    case 'zoom':
      return scene?.zoom(message.factor)
    case 'frame-model':
      return scene?.frameTransformed()
    case 'input':
      return surface?.dispatchInput(message.input)
  }
}

scope.addEventListener('message', (event: MessageEvent<ToWorker>) => {
  received += 1
  handle(event.data)
  report()
})
