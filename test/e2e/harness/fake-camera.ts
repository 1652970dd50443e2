import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { PNG } from 'pngjs'
import { CHROMIUM_ARGS, chromiumExecutable } from './chromium.ts'
import { labelled, newDraft, saved } from './editor-page.ts'
import { expect } from './fixtures.ts'

/**
 * Chromium's fake camera for the try-on's camera tests (shared/guide/testing.md): a real
 * getUserMedia stream with no hardware, showing a sample portrait. Only these tests launch with
 * these flags, so every other test runs with the camera's permission asked as usual.
 */

/**
 * A PNG as one frame of a YUV4MPEG2 (.y4m) video, which Chromium's fake capture plays in a loop:
 * the header, then "FRAME" and the picture in 4:2:0 (full-size luma, then the two chroma planes at
 * half size, each the mean of a 2×2 block), with the BT.601 full-range ("JPEG") matrix its C420jpeg
 * tag names.
 */
export function pngToY4m(png: Buffer): Buffer {
  const { width, height, data } = PNG.sync.read(png)
  const even = (n: number) => n - (n % 2)
  const w = even(width)
  const h = even(height)
  const y = Buffer.alloc(w * h)
  const u = Buffer.alloc((w / 2) * (h / 2))
  const v = Buffer.alloc((w / 2) * (h / 2))
  const clamp = (n: number) => Math.max(0, Math.min(255, Math.round(n)))
  for (let row = 0; row < h; row += 2) {
    for (let col = 0; col < w; col += 2) {
      let cb = 0
      let cr = 0
      for (const [dy, dx] of [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ] as const) {
        const i = ((row + dy) * width + col + dx) * 4
        const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!]
        y[(row + dy) * w + col + dx] = clamp(0.299 * r + 0.587 * g + 0.114 * b)
        cb += 128 - 0.168736 * r - 0.331264 * g + 0.5 * b
        cr += 128 + 0.5 * r - 0.418688 * g - 0.081312 * b
      }
      u[(row / 2) * (w / 2) + col / 2] = clamp(cb / 4)
      v[(row / 2) * (w / 2) + col / 2] = clamp(cr / 4)
    }
  }
  const header = `YUV4MPEG2 W${w} H${h} F30:1 Ip A1:1 C420jpeg\n`
  return Buffer.concat([Buffer.from(header), Buffer.from('FRAME\n'), y, u, v])
}

/**
 * The fake camera's video, made from `portrait` (a PNG) into a file of its own, written whole
 * before it is named (two workers may make it at once).
 */
export function fakeCameraVideo(portrait: string): string {
  const dir = join(tmpdir(), 'catalog-desk-fake-camera')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'face.y4m')
  const temp = `${file}.${process.pid}.tmp`
  writeFileSync(temp, pngToY4m(readFileSync(portrait)))
  renameSync(temp, file)
  return file
}

/** Chromium's fake devices: a camera (and microphones) that need no hardware. */
export const FAKE_DEVICES = '--use-fake-device-for-media-stream'
/** Fake devices with no camera among them: never a real camera, whatever the computer. */
export const NO_CAMERA = `${FAKE_DEVICES}=device-count=0`
/** Chromium's stand-in for the person's answer to the camera prompt: yes. */
export const FAKE_YES = '--use-fake-ui-for-media-stream'
/** The same, answering no. */
export const FAKE_NO = `${FAKE_YES}=deny`

/** Launch options: the suite's Chromium and flags, plus `extra`. */
export function launchWith(extra: string[]) {
  const executablePath = chromiumExecutable()
  return { ...(executablePath ? { executablePath } : {}), args: [...CHROMIUM_ARGS, ...extra] }
}

/**
 * Keeps every stream the page's getUserMedia returned (the real one, called as it is), so a test
 * can see the tracks after the page has let go of them. An init script: self-contained.
 */
function recordStreams() {
  const devices = (globalThis as unknown as { navigator: { mediaDevices: MediaDevices } }).navigator
    .mediaDevices
  const ask = devices.getUserMedia.bind(devices)
  const streams: Stream[] = []
  Object.defineProperty(globalThis, '__cameraStreams', { value: streams })
  devices.getUserMedia = async (constraints) => {
    const stream = await ask(constraints)
    streams.push(stream)
    return stream
  }
}

// Typed by hand: the test programme compiles without the DOM library.
interface Stream {
  getTracks(): Array<{ kind: string; readyState: string }>
}
interface MediaDevices {
  getUserMedia(constraints: unknown): Promise<Stream>
}

/** Each track the page ever got from getUserMedia, as "video live" or "video ended". */
export const trackStates = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { __cameraStreams: Stream[] }).__cameraStreams.flatMap((stream) =>
      stream.getTracks().map((track) => `${track.kind} ${track.readyState}`),
    ),
  )

/** A new eyewear draft's try-on, its face picker (returned) showing the first sample. */
export async function openTryOnPicker(page: Page) {
  await page.addInitScript(recordStreams)
  await newDraft(page)
  await page.getByLabel(labelled('Category')).fill('eyewear')
  await saved(page)
  await page.getByRole('radio', { name: 'Try on' }).check()
  const picker = page.getByRole('region', { name: 'Face to try on' })
  await expect(picker.getByRole('radio').first()).toBeChecked()
  return picker
}
