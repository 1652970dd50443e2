import type { ShadowSettings, Vector3Like } from './preview-settings.ts'
import type {
  ForwardedInput,
  FromWorker,
  ModelReading,
  Placement,
  SurfaceSize,
  ToWorker,
  WorkerRequest,
} from './preview-messages.ts'
import type { ToneMappingCurve } from './tone-mapping.ts'
import type { FaceLandmarks } from '#shared/try-on/face-landmarks.ts'
import { failureText, loadPreviewAsset, transcodeTexture } from '#renderer/adapters/preview-assets.ts'

/**
 * The page's side of the preview: starts the worker that draws (preview-worker.ts) on the canvas,
 * hands it the canvas, its size and the pointer, answers its requests through main, and turns its
 * answers into promises and callbacks. Nothing here loads three.js.
 */

export interface PreviewClientEvents {
  /** After each frame and each message taken: see `drawn` in preview-messages.ts. */
  onProgress(progress: { frames: number; settled: boolean; modelInView?: boolean }): void
  /** No scene can be drawn; `noWebGL` when WebGL is what is missing. */
  onUnavailable(reason: string, noWebGL: boolean): void
  onContextLost(): void
  /** The try-on placed the model (see `placed` in preview-messages.ts). */
  onPlaced?(placement: Placement | undefined): void
}

export interface PreviewClient {
  /** Shows a model's bytes in place of the previous one; says how it was read, or rejects with why not in words. */
  showModel(bytes: Uint8Array, address?: string): Promise<ModelReading>
  /** Lights the scene with an environment image's bytes; rejects with why not in words. */
  showEnvironment(bytes: Uint8Array): Promise<Lit>
  setTransform(position: Vector3Like, rotation: Vector3Like): void
  setToneMapping(curve: ToneMappingCurve): void
  setIntensity(value: number): void
  setShadow(shadow: ShadowSettings): void
  setFieldOfView(degrees: number): void
  resetView(): void
  orbit(left: number, up: number): void
  zoom(factor: number): void
  frameModel(): void
  /** The try-on: the model on this face; undefined goes back to the studio. */
  showFace(face: FaceLandmarks | undefined): void
  setModelVisible(visible: boolean): void
  stop(): void
}

/** How an environment image lights the scene: `softened` as preview-messages.ts says. */
export interface Lit {
  softened: boolean
}

/** Raised when this browser cannot hand a canvas to a worker (every Chromium since 69 can). */
export class OffscreenUnavailableError extends Error {}

const sizeOf = (canvas: HTMLCanvasElement): SurfaceSize => ({
  width: canvas.clientWidth,
  height: canvas.clientHeight,
  pixelRatio: window.devicePixelRatio || 1,
})

function forwarded(event: PointerEvent | WheelEvent, canvas: HTMLCanvasElement): ForwardedInput {
  const { left, top, width, height } = canvas.getBoundingClientRect()
  const wheel = event instanceof WheelEvent ? event : undefined
  const pointer = event instanceof PointerEvent ? event : undefined
  return {
    type: event.type as ForwardedInput['type'],
    pointerId: pointer?.pointerId ?? 0,
    pointerType: pointer?.pointerType ?? 'mouse',
    button: event.button,
    clientX: event.clientX,
    clientY: event.clientY,
    pageX: event.pageX,
    pageY: event.pageY,
    deltaX: wheel?.deltaX ?? 0,
    deltaY: wheel?.deltaY ?? 0,
    deltaMode: wheel?.deltaMode ?? 0,
    ctrlKey: event.ctrlKey,
    metaKey: event.metaKey,
    shiftKey: event.shiftKey,
    rect: { left, top, width, height },
  }
}

/**
 * The stills' preview (the try-on's contact sheet, issue #39): the same worker and scene, drawing
 * on a canvas of its own that is never on the page; `still()` draws what it was told to show and
 * hands the pixels back. No pointer, no resizing but the stills' own sizes.
 */
export interface StillPreviewClient extends Omit<
  PreviewClient,
  'resetView' | 'orbit' | 'zoom' | 'frameModel'
> {
  /** Draws the scene as it stands, `width` × `height` pixels, and resolves with the picture. */
  still(width: number, height: number): Promise<ImageBitmap>
}

export function startPreview(canvas: HTMLCanvasElement, events: PreviewClientEvents): PreviewClient {
  if (typeof canvas.transferControlToOffscreen !== 'function') {
    throw new OffscreenUnavailableError('this browser cannot draw on a canvas from a worker')
  }
  const offscreen = canvas.transferControlToOffscreen()
  const { send, client } = connect(offscreen, sizeOf(canvas), events)
  const observer = new ResizeObserver(() => send({ type: 'resize', size: sizeOf(canvas) }))
  observer.observe(canvas)

  // The orbit controls run in the worker; the page holds the element, so it captures the pointer
  // (a drag goes on outside the canvas) and forwards what the controls read.
  const input = (event: PointerEvent | WheelEvent) => send({ type: 'input', input: forwarded(event, canvas) })
  const listeners: Array<[string, (event: Event) => void, AddEventListenerOptions?]> = [
    [
      'pointerdown',
      (event) => {
        canvas.setPointerCapture((event as PointerEvent).pointerId)
        input(event as PointerEvent)
      },
    ],
    [
      'pointermove',
      (event) => {
        if (canvas.hasPointerCapture((event as PointerEvent).pointerId)) input(event as PointerEvent)
      },
    ],
    ['pointerup', (event) => input(event as PointerEvent)],
    ['pointercancel', (event) => input(event as PointerEvent)],
    [
      'wheel',
      (event) => {
        // The page would scroll too: the wheel zooms the model, as the controls intend.
        event.preventDefault()
        input(event as WheelEvent)
      },
      { passive: false },
    ],
    ['contextmenu', (event) => event.preventDefault()],
  ]
  for (const [type, listener, options] of listeners) canvas.addEventListener(type, listener, options)

  const { still: _still, ...shared } = client
  return {
    ...shared,
    resetView: () => send({ type: 'reset-view' }),
    orbit: (left, up) => send({ type: 'orbit', left, up }),
    zoom: (factor) => send({ type: 'zoom', factor }),
    frameModel: () => send({ type: 'frame-model' }),
    stop() {
      observer.disconnect()
      for (const [type, listener] of listeners) canvas.removeEventListener(type, listener)
      client.stop()
    },
  }
}

/** Starts a preview worker that draws stills only (see `StillPreviewClient`). */
export function startStillPreview(events: PreviewClientEvents): StillPreviewClient {
  const size = { width: 1, height: 1, pixelRatio: 1 }
  return connect(new OffscreenCanvas(size.width, size.height), size, events).client
}

/** The worker, the messages both ways and the calls both clients share, whatever canvas it draws on. */
function connect(offscreen: OffscreenCanvas, size: SurfaceSize, events: PreviewClientEvents) {
  const worker = new Worker(new URL('./preview-worker.ts', import.meta.url), {
    type: 'module',
    name: 'AR preview',
  })
  /** Messages sent, counted as the worker counts those it takes. */
  let sent = 0
  let frames = 0
  let stopped = false
  const send = (message: ToWorker, transfer: Transferable[] = []) => {
    if (stopped) return
    sent += 1
    worker.postMessage(message, transfer)
    // Not on screen until the worker says it took this and drew what it asked.
    events.onProgress({ frames, settled: false })
  }

  const loads = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  let lastLoad = 0
  const load = <T>(message: (load: number) => ToWorker): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = ++lastLoad
      loads.set(id, { resolve: resolve as (value: unknown) => void, reject })
      send(message(id))
    })
  const settle = (id: number, outcome: { value?: unknown; reason?: string }) => {
    const waiting = loads.get(id)
    loads.delete(id)
    if (outcome.reason === undefined) waiting?.resolve(outcome.value)
    else waiting?.reject(new Error(outcome.reason))
  }
  const stills = new Map<number, { resolve(bitmap: ImageBitmap): void; reject(error: Error): void }>()
  let lastStill = 0

  /** A model or environment shown: its frame is on its way, whatever `drawn` said before. */
  let frameOwed = false

  async function answer(request: WorkerRequest) {
    try {
      if (request.kind === 'file') {
        const { bytes } = await loadPreviewAsset({ source: 'url', url: request.url })
        send({ type: 'answer', id: request.id, file: bytes })
      } else {
        const texture = await transcodeTexture(request.bytes, request.load)
        send(
          { type: 'answer', id: request.id, texture },
          texture.levels.map((level) => level.data.buffer),
        )
      }
    } catch (error) {
      send({ type: 'answer', id: request.id, error: failureText(error) })
    }
  }

  worker.addEventListener('message', ({ data }: MessageEvent<FromWorker>) => {
    switch (data.type) {
      case 'request':
        return void answer(data)
      case 'drawn':
        if (!data.pending) frameOwed = false
        frames = data.frames
        return events.onProgress({
          frames,
          settled: !frameOwed && !data.pending && data.change === sent,
          modelInView: data.modelInView,
        })
      case 'model-shown':
        frameOwed = true
        events.onProgress({ frames, settled: false })
        return settle(data.load, { value: data.reading })
      case 'environment-shown':
        frameOwed = true
        events.onProgress({ frames, settled: false })
        return settle(data.load, { value: { softened: data.softened } })
      case 'model-failed':
      case 'environment-failed':
        return settle(data.load, { reason: data.reason })
      case 'unavailable':
        return events.onUnavailable(data.reason, data.noWebGL)
      case 'context-lost':
        return events.onContextLost()
      case 'placed':
        return events.onPlaced?.(data.placement)
      case 'still': {
        const waiting = stills.get(data.id)
        stills.delete(data.id)
        if (data.bitmap) waiting?.resolve(data.bitmap)
        else waiting?.reject(new Error(data.error ?? 'nothing was drawn'))
        return
      }
    }
  })
  // The worker's script could not run (refused, missing): as good as no preview at all.
  worker.addEventListener('error', (event) => {
    event.preventDefault()
    events.onUnavailable(event.message || 'its worker did not start', false)
  })

  send({ type: 'start', canvas: offscreen, size }, [offscreen])

  const client: StillPreviewClient = {
    showModel: (bytes, address) => load<ModelReading>((id) => ({ type: 'model', load: id, bytes, address })),
    showEnvironment: (bytes) => load<Lit>((id) => ({ type: 'environment', load: id, bytes })),
    setTransform: (position, rotation) => send({ type: 'transform', position, rotation }),
    setToneMapping: (curve) => send({ type: 'tone-mapping', curve }),
    setIntensity: (value) => send({ type: 'intensity', value }),
    setShadow: (shadow) => send({ type: 'shadow', shadow }),
    setFieldOfView: (degrees) => send({ type: 'field-of-view', degrees }),
    showFace: (face) => send({ type: 'face', face }),
    setModelVisible: (visible) => send({ type: 'model-visible', visible }),
    still: (width, height) =>
      new Promise<ImageBitmap>((resolve, reject) => {
        if (stopped) return reject(new Error('the preview was closed'))
        const id = ++lastStill
        stills.set(id, { resolve, reject })
        send({ type: 'still', id, size: { width, height, pixelRatio: 1 } })
      }),
    stop() {
      stopped = true
      // The worker's WebGL context ends with it: given back now, not whenever it is collected.
      worker.terminate()
      for (const waiting of [...loads.values(), ...stills.values()])
        waiting.reject(new Error('the preview was closed'))
      loads.clear()
      stills.clear()
    },
  }
  return { send, client }
}
