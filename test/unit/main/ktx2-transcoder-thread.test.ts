import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterEach, describe, expect, it } from 'vitest'
import { MODEL_TEXTURE_BUDGET_BYTES, readKtx2Header, TEXTURE_BUDGET_BYTES } from '#node/ktx2-header.ts'
import { transcodeKtx2 } from '#node/ktx2-transcoder.ts'
import {
  createTextureTranscoder,
  type TextureTranscoder,
  type TextureTranscoderOptions,
} from '#node/ktx2-transcoder-thread.ts'
import { fixtureFile as fixture, fixtureTexture } from './ktx2-fixture.ts'

// The preview's KTX2 textures as main transcodes them (issue #32): on a thread of their own, so
// main's event loop keeps turning; within budgets read from each texture's header before anything
// decodes it, so a 6 KB texture that would be 341 MB of pixels is refused at once; and a texture
// that takes too long ends its thread, the next texture starting another.

/** A uniform 8,192² texture with every level, ETC1S: 5,960 bytes, 341 MB of pixels (test/fixtures/assets/README.md). */
const BOMB = 'uniform-8192.ktx2'
/** The same at 4,096²: 3,223 bytes, 85.3 MB of pixels, within the budget; about a second to transcode. */
const LARGE = 'uniform-4096.ktx2'
const MODEL = '3f1f8f8e-6c1e-4c69-9a59-4f5f2b8f2f10'
const OTHER_MODEL = '9b2d7d3c-1a4e-4b8e-8f0e-2c6d5a4b3e21'
const MISBEHAVING = new URL('./misbehaving-ktx2-worker.ts', import.meta.url)
const HANGING = new URL('./hanging-ktx2-worker.ts', import.meta.url)

let transcoders: TextureTranscoder[] = []
afterEach(async () => {
  await Promise.all(transcoders.map((transcoder) => transcoder.close()))
  transcoders = []
})

function start(options: TextureTranscoderOptions = {}): TextureTranscoder {
  const transcoder = createTextureTranscoder(options)
  transcoders.push(transcoder)
  return transcoder
}

/**
 * How main's event loop fared while `run` ran: how often a 10 ms interval ran, and the longest it
 * was held up (perf_hooks' histogram, in milliseconds).
 */
async function loopDuring<T>(run: () => Promise<T>) {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  let ticks = 0
  const timer = setInterval(() => ticks++, 10)
  delay.enable()
  const [result] = await Promise.allSettled([run()])
  delay.disable()
  clearInterval(timer)
  return { result: result!, ticks, longestMs: delay.max / 1e6 }
}

describe('the budget, from the header, before anything is decoded', () => {
  it('refuses the 6 KB texture that is 341 MB of pixels at once, naming it and the budget; main’s loop never stops', async () => {
    const transcoder = start()
    const bomb = fixture(BOMB)
    expect(bomb.byteLength).toBe(5_960)
    const { result, longestMs } = await loopDuring(() => transcoder.transcode(bomb, MODEL))
    expect(result).toMatchObject({
      status: 'rejected',
      reason: {
        message:
          'the KTX2 texture is 8192×8192 with 14 levels, 341.3 MB as pixels, over the 96 MB the preview transcodes a texture',
      },
    })
    // Never handed to the thread: the bytes would have been transferred, leaving the array empty.
    expect(bomb.byteLength).toBe(5_960)
    // Transcoded in main as before, it held the loop for 1.4–3.2 s.
    expect(longestMs).toBeLessThan(500)
  })

  it('counts a model’s textures together: past the budget a model, the next is refused; another model has its own', async () => {
    // The budget a model made small enough for two of the 512² fixture (1.4 MB each with its levels).
    const transcoder = start({ modelBudget: 3 * 1024 * 1024 })
    await expect(transcoder.transcode(fixtureTexture(), MODEL)).resolves.toMatchObject({ width: 512 })
    await expect(transcoder.transcode(fixtureTexture(), MODEL)).resolves.toMatchObject({ width: 512 })
    await expect(transcoder.transcode(fixtureTexture(), MODEL)).rejects.toThrow(
      "the model's KTX2 textures come to 4 MB as pixels with this one (1.3 MB), over the 3 MB the preview transcodes a model",
    )
    await expect(transcoder.transcode(fixtureTexture(), OTHER_MODEL)).resolves.toMatchObject({ width: 512 })
    // Asked at once, they are counted as they are asked, not as they are done.
    const together = await Promise.allSettled(
      [1, 2, 3].map(() => transcoder.transcode(fixtureTexture(), crypto.randomUUID())),
    )
    expect(together.map((each) => each.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled'])
    const one = crypto.randomUUID()
    const three = await Promise.allSettled([1, 2, 3].map(() => transcoder.transcode(fixtureTexture(), one)))
    expect(three.map((each) => each.status)).toEqual(['fulfilled', 'fulfilled', 'rejected'])
  })

  it('the asset checks’ largest texture, 4,096² with every level, fits the budget a texture, and three of them a model', () => {
    const { bytes } = readKtx2Header(fixture(LARGE))
    expect(bytes).toBe(89_478_484)
    expect(bytes).toBeLessThanOrEqual(TEXTURE_BUDGET_BYTES)
    expect(3 * bytes).toBeLessThanOrEqual(MODEL_TEXTURE_BUDGET_BYTES)
  })
})

describe('within the budget, on the thread', () => {
  it('gives what in-process transcoding gives, the pixels transferred and the bytes handed over', async () => {
    const transcoder = start()
    const bytes = fixtureTexture()
    const texture = await transcoder.transcode(bytes, MODEL)
    expect(texture).toEqual(await transcodeKtx2(fixtureTexture()))
    expect(texture.levels.map((level) => level.width)).toEqual([512, 256, 128, 64, 32, 16, 8, 4, 2, 1])
    // Handed over, not copied.
    expect(bytes.byteLength).toBe(0)
    // Each level in a buffer of its own (what was transferred), not a view into a shared one.
    expect(texture.levels.every((level) => level.data.byteLength === level.data.buffer.byteLength)).toBe(true)
  })

  it('a large texture: main’s loop keeps turning, where in-process it stands still until Basis is done', async () => {
    const transcoder = start()
    // Both transcoders compiled first: only the transcoding itself is watched.
    await transcoder.transcode(fixtureTexture(), MODEL)
    await transcodeKtx2(fixtureTexture())
    const inProcess = await loopDuring(() => transcodeKtx2(fixture(LARGE)))
    const inThread = await loopDuring(() => transcoder.transcode(fixture(LARGE), MODEL))
    expect(inThread.result).toMatchObject({ status: 'fulfilled', value: { width: 4096, height: 4096 } })
    expect(inProcess.ticks).toBe(0)
    expect(inThread.ticks).toBeGreaterThan(0)
  })

  it('refuses what is not KTX2 or is damaged, in words', async () => {
    const transcoder = start()
    await expect(transcoder.transcode(new TextEncoder().encode('<!doctype html>'), MODEL)).rejects.toThrow(
      'it is not a KTX2 texture',
    )
    await expect(transcoder.transcode(fixtureTexture().slice(0, 200), MODEL)).rejects.toThrow(
      'the KTX2 texture is damaged (its level index is cut short)',
    )
    // The header whole, the data cut: Basis finds it damaged, on the thread.
    await expect(transcoder.transcode(fixtureTexture().slice(0, 1000), MODEL)).rejects.toThrow(
      'the KTX2 texture is damaged',
    )
  })
})

describe('a thread that takes too long or stops', () => {
  it('too slow: past its time the texture fails saying so, and the next texture is transcoded by a new thread', async () => {
    // A texture the thread never finishes (not merely a large one: on a busy machine the small one
    // after it could take longer than a limit a real large texture would pass).
    const transcoder = start({ timeoutMs: 2_000, workerFile: HANGING })
    // Warm: the clock runs from Basis compiled, not from the thread's start.
    await transcoder.transcode(fixtureTexture(), MODEL)
    const slow = transcoder.transcode(fixture(LARGE), OTHER_MODEL)
    const next = transcoder.transcode(fixtureTexture(), OTHER_MODEL)
    await expect(slow).rejects.toThrow(
      'the KTX2 transcoder stopped (the texture took longer than 2 seconds, the most one may take)',
    )
    await expect(next).resolves.toMatchObject({ width: 512 })
  })

  it('ends itself: the texture fails saying so; the next starts a new thread', async () => {
    const transcoder = start({ workerFile: MISBEHAVING })
    await expect(transcoder.transcode(fixture(LARGE), MODEL)).rejects.toThrow(
      'the KTX2 transcoder stopped (it ended unexpectedly, exit code 3)',
    )
    await expect(transcoder.transcode(fixtureTexture(), MODEL)).resolves.toMatchObject({ width: 512 })
  })
})
