import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import type { FaceLandmarks } from '#shared/try-on/face-landmarks.ts'

/**
 * The face-landmark worker as the browser tests and the benchmark drive it: the built worker
 * (out/renderer/assets/face-worker-*.js) started from the app's page, on the app's origin and under
 * its CSP, spoken to in its own messages (face-messages.ts), on pictures fetched from the app's
 * origin like the sample faces. The app's own client (face-client.ts) says the same.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

/** A sample portrait as resources/faces/faces.json lists it. */
export interface SampleFace {
  id: string
  file: string
  label: string
  width: number
  height: number
  marks: Record<'rightPupil' | 'leftPupil' | 'noseBridge', [number, number]>
}

export const sampleFaces = (): SampleFace[] =>
  JSON.parse(readFileSync(join(repoRoot, 'resources/faces/faces.json'), 'utf8')) as SampleFace[]

/** The built worker's file name under assets/ (named by its content's hash). */
export function builtFaceWorker(): string {
  const names = readdirSync(join(repoRoot, 'out/renderer/assets')).filter((name) =>
    /^face-worker-[\w-]+\.js$/.test(name),
  )
  if (names.length !== 1)
    throw new Error(`Expected one built face worker, found: ${names.join(', ') || 'none'}`)
  return names[0]!
}

/**
 * The worker's answers, as src/renderer/src/features/skus/try-on/face-messages.ts has them (that
 * module is the page's, typed with the DOM, which the tests' typecheck does not have).
 */
export type FromFaceWorker =
  | { type: 'loaded'; id: number; ms: number }
  | { type: 'detected'; id: number; face?: FaceLandmarks }
  | { type: 'echoed'; id: number }
  | { type: 'failed'; id: number; reason: string; loading: boolean }

/** What the page function below uses of the page's globals. */
interface PageGlobals {
  Worker: new (url: string, options: { type: 'module'; name: string }) => PageWorker
  document: { baseURI: string }
  fetch(url: string): Promise<{ blob(): Promise<Blob> }>
  createImageBitmap(blob: Blob): Promise<object>
  performance: { now(): number }
}

interface PageWorker {
  postMessage(message: object, transfer: object[]): void
  addEventListener(type: 'message', listener: (event: { data: FromFaceWorker }) => void): void
  removeEventListener(type: 'message', listener: (event: { data: FromFaceWorker }) => void): void
  terminate(): void
}

/** A picture for the worker: a file on the app's origin, or bytes handed in by the test. */
export type Picture = { path: string } | { bytes: number[]; type: string }

export interface Timed<T> {
  answer: T
  /** From the picture's decoding to the worker's answer, in ms. */
  ms: number
}

export interface FaceWorkerRun {
  load: FromFaceWorker
  /** Per picture: the worker's answers, in order, `repeat` times each (all empty when it did not load). */
  answers: Timed<FromFaceWorker>[][]
}

/**
 * Starts the worker in `page` (on the app's origin), loads the model from `folder` (default: the
 * app's face-model/), then sends each picture `repeat` times as `message` says: `detect` (a still,
 * or `frame`: the box cache on) or `echo` (the round trip alone, the benchmark's baseline). Each
 * send decodes the picture afresh, as the try-on does with a photo file or a camera frame.
 */
export function runFaceWorker(
  page: Page,
  options: {
    pictures: Picture[]
    message: 'detect' | 'frame' | 'echo'
    repeat?: number
    folder?: string
  },
): Promise<FaceWorkerRun> {
  const worker = `./assets/${builtFaceWorker()}`
  return page.evaluate(
    async ({ worker, pictures, message, repeat, folder }) => {
      const page = globalThis as unknown as PageGlobals
      const started = new page.Worker(worker, { type: 'module', name: 'Face landmarks (test)' })
      let requests = 0
      const ask = (request: object, transfer: object[] = []) =>
        new Promise<FromFaceWorker>((answered) => {
          const id = ++requests
          const listen = ({ data }: { data: FromFaceWorker }) => {
            if (data.id !== id) return
            started.removeEventListener('message', listen)
            answered(data)
          }
          started.addEventListener('message', listen)
          started.postMessage({ ...request, id }, transfer)
        })
      try {
        const load = await ask({ type: 'load', folder: new URL(folder, page.document.baseURI).href })
        const answers: Timed<FromFaceWorker>[][] = []
        if (load.type !== 'loaded') return { load, answers }
        for (const picture of pictures) {
          const blob =
            'path' in picture
              ? await (await page.fetch(picture.path)).blob()
              : new Blob([new Uint8Array(picture.bytes)], { type: picture.type })
          const timed: Timed<FromFaceWorker>[] = []
          for (let round = 0; round < repeat; round++) {
            const start = page.performance.now()
            const bitmap = await page.createImageBitmap(blob)
            const request =
              message === 'echo'
                ? { type: 'echo', bitmap }
                : { type: 'detect', bitmap, frame: message === 'frame' }
            const answer = await ask(request, [bitmap])
            timed.push({ answer, ms: page.performance.now() - start })
          }
          answers.push(timed)
        }
        return { load, answers }
      } finally {
        started.terminate()
      }
    },
    { worker, repeat: 1, folder: './face-model/', ...options },
  )
}

/** The face a detection answer carries, if any. */
export function faceOf(answer: FromFaceWorker): FaceLandmarks | undefined {
  if (answer.type === 'failed') throw new Error(`The worker failed: ${answer.reason}`)
  return answer.type === 'detected' ? answer.face : undefined
}
