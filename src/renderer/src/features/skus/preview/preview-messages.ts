import type { TranscodedTexture } from '#shared/ipc.ts'
import type { ShadowSettings, Vector3Like } from './preview-settings.ts'
import type { ToneMappingCurve } from './tone-mapping.ts'
import type { FaceLandmarks } from '#shared/try-on/face-landmarks.ts'

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
  /**
   * The try-on (issue #39): the model on this face (its picture is the page's, behind the
   * transparent canvas), placed by src/shared/try-on/fit.ts; undefined goes back to the studio.
   */
  | { type: 'face'; face?: FaceLandmarks }
  | { type: 'model-visible'; visible: boolean }
  /**
   * A still of what the scene shows now, drawn at `size` (the contact sheet's tiles: one worker
   * drawing tile after tile, issue #39), answered by a `still` with its pixels.
   */
  | { type: 'still'; id: number; size: SurfaceSize }
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
  /** `softened`: lit from a smaller copy of the picture than it holds (WebGL drawn in software). */
  | { type: 'environment-shown'; load: number; softened: boolean }
  | { type: 'environment-failed'; load: number; reason: string }
  /** The still asked for under `id`: its pixels (transparent where nothing is drawn), or why not. */
  | { type: 'still'; id: number; bitmap?: ImageBitmap; error?: string }
  /** Where the try-on put the model (after each change of face, transform or model); undefined in the studio. */
  | { type: 'placed'; placement?: Placement }

/** Where the try-on put the model, in the picture's pixels. */
export interface Placement {
  /** The model's origin (where its bridge rests) on the picture. */
  origin: [x: number, y: number]
  /** Picture pixels per metre at the face (its pupils taken as 63 mm apart). */
  pixelsPerMetre: number
  /** The model's width as drawn (its box across, at the face's scale), in picture pixels. */
  width: number
  /** Said when the model's size does not read as a frame in metres. */
  note?: string
}
