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
import type { FromWorker, ToWorker, WorkerRequest } from './preview-messages.ts'
import { createPreviewScene, disposeObject, WebGLUnavailableError, type PreviewScene } from './scene.ts'
import type { ToneMappingCurve } from './tone-mapping.ts'

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

async function showModel(load: number, bytes: Uint8Array, address: string | undefined) {
  try {
    const loaded = await parseModel({ bytes, address, fetchFile, transcodeTexture })
    if (load !== latestModel || !scene) {
      disposeObject(loaded.scene)
      return post({ type: 'model-failed', load, reason: REPLACED })
    }
    scene.setModel(loaded.scene)
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
    scene.setEnvironment(texture)
    post({ type: 'environment-shown', load })
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
      return scene?.setTransform(message.position, message.rotation)
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
