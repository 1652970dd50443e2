import type { TranscodedTexture } from '#shared/ipc.ts'
import type { ShadowSettings, Vector3Like } from './preview-settings.ts'
import type { ToneMappingCurve } from './tone-mapping.ts'

/**
 * What the page and the preview's worker say to each other (preview-client.ts on the page,
 * preview-worker.ts in the worker). The worker draws the scene on the canvas the page handed it
 * (an OffscreenCanvas) and does all of three.js's work: decoding a model, building the scene,
 * compiling shaders, uploading textures, drawing. None of it can then hold the page's thread, so
 * the editor's fields take input while a large model loads (issue #37). The page keeps what needs
 * the page: the downloads and transcoding through main (`window.api` exists only there), the
 * pointer, the canvas's size.
 */

/** The canvas's size in CSS pixels, and the screen's pixels per CSS pixel. */
export interface SurfaceSize {
  width: number
  height: number
  pixelRatio: number
}

/** A pointer or wheel event, as much of it as the orbit controls read. */
export interface ForwardedInput {
  type: 'pointerdown' | 'pointermove' | 'pointerup' | 'pointercancel' | 'wheel'
  pointerId: number
  pointerType: string
  button: number
  clientX: number
  clientY: number
  pageX: number
  pageY: number
  deltaX: number
  deltaY: number
  deltaMode: number
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  /** Where the canvas is on the page, at the event. */
  rect: { left: number; top: number; width: number; height: number }
}

export type ToWorker =
  | { type: 'start'; canvas: OffscreenCanvas; size: SurfaceSize }
  | { type: 'resize'; size: SurfaceSize }
  /** A model's bytes; `load` is echoed in the answer, so a late answer for a model left is dropped. */
  | { type: 'model'; load: number; bytes: Uint8Array; address?: string }
  | { type: 'environment'; load: number; bytes: Uint8Array }
  | { type: 'transform'; position: Vector3Like; rotation: Vector3Like }
  | { type: 'tone-mapping'; curve: ToneMappingCurve }
  | { type: 'intensity'; value: number }
  | { type: 'shadow'; shadow: ShadowSettings }
  | { type: 'field-of-view'; degrees: number }
  | { type: 'reset-view' }
  | { type: 'orbit'; left: number; up: number }
  | { type: 'zoom'; factor: number }
  | { type: 'frame-model' }
  | { type: 'input'; input: ForwardedInput }
  /** The answer to one of the worker's requests. */
  | { type: 'answer'; id: number; file?: Uint8Array; texture?: TranscodedTexture; error?: string }

/** What the worker asks the page for: a file a .gltf names (through main), a KTX2 texture transcoded by main. */
export type WorkerRequest =
  | { type: 'request'; id: number; kind: 'file'; url: string }
  | { type: 'request'; id: number; kind: 'transcode'; bytes: Uint8Array<ArrayBuffer>; load: string }

/** How a model was read, for the caption. */
export interface ModelReading {
  decoders: string[]
  extensions: string[]
  files: number
}

export type FromWorker =
  | WorkerRequest
  /** No scene can be drawn: no WebGL 2 here, or it could not start (the reason in words). */
  | { type: 'unavailable'; reason: string; noWebGL: boolean }
  | { type: 'context-lost' }
  /**
   * How far the drawing has come, after each message and each frame: `change` counts the messages
   * taken from the page, `pending` says a frame is asked for and not drawn yet. When `change` is
   * what the page sent and nothing is pending, what the page asked for is on screen.
   */
  | { type: 'drawn'; frames: number; change: number; pending: boolean; modelInView?: boolean }
  | { type: 'model-shown'; load: number; reading: ModelReading }
  | { type: 'model-failed'; load: number; reason: string }
  | { type: 'environment-shown'; load: number }
  | { type: 'environment-failed'; load: number; reason: string }
