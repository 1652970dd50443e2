import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MAX_TEXTURE_SIDE, transcodeKtx2 } from '#node/ktx2-transcoder.ts'

/** The KTX2 texture inside the derived fixture (test/fixtures/assets/README.md): React's logo, cyan at its centre. */
function fixtureTexture(): Uint8Array {
  const glb = readFileSync(new URL('../../fixtures/assets/ktx2-textured.glb', import.meta.url))
  const jsonLength = glb.readUInt32LE(12)
  const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8')) as {
    images: Array<{ bufferView: number }>
    bufferViews: Array<{ byteOffset?: number; byteLength: number }>
  }
  const binary = glb.subarray(20 + jsonLength + 8)
  const view = json.bufferViews[json.images[0]!.bufferView]!
  const start = view.byteOffset ?? 0
  return new Uint8Array(binary.subarray(start, start + view.byteLength))
}

describe('KTX2 textures transcoded for the preview', () => {
  it('gives every level as RGBA pixels, and says the colours are sRGB', async () => {
    const texture = await transcodeKtx2(fixtureTexture())
    expect([texture.width, texture.height, texture.srgb]).toEqual([512, 512, true])
    expect(texture.levels.map((level) => level.width)).toEqual([512, 256, 128, 64, 32, 16, 8, 4, 2, 1])
    expect(texture.levels.every((level) => level.data.length === level.width * level.height * 4)).toBe(true)
    // The logo's centre: React's cyan (90, 192, 218 in the picture; ETC1S is lossy).
    const centre = (256 * 512 + 256) * 4
    const [red, green, blue, alpha] = texture.levels[0]!.data.subarray(centre, centre + 4)
    expect(Math.abs(red! - 90)).toBeLessThan(16)
    expect(Math.abs(green! - 192)).toBeLessThan(16)
    expect(Math.abs(blue! - 218)).toBeLessThan(16)
    expect(alpha).toBe(255)
  })

  it('refuses bytes that are not a KTX2 texture, and one too large to preview, in words', async () => {
    await expect(transcodeKtx2(new TextEncoder().encode('<!doctype html><p>Not found</p>'))).rejects.toThrow(
      'it is not a KTX2 texture',
    )
    const cut = fixtureTexture().subarray(0, 200)
    await expect(transcodeKtx2(cut)).rejects.toThrow('the KTX2 texture is damaged')
    // The header's pixel width (bytes 20–23) says 16,384: refused before anything is made.
    const huge = fixtureTexture().slice()
    new DataView(huge.buffer).setUint32(20, 16_384, true)
    await expect(transcodeKtx2(huge)).rejects.toThrow(
      `the KTX2 texture is 16384×512; the preview shows at most ${MAX_TEXTURE_SIDE} pixels a side`,
    )
  })
})
