import { describe, expect, it } from 'vitest'
import { MAX_TEXTURE_SIDE } from '#node/ktx2-header.ts'
import { transcodeKtx2 } from '#node/ktx2-transcoder.ts'
import { fixtureTexture } from './ktx2-fixture.ts'

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

    // The header read as it is written, before Basis reads any of it: each figure it gives.
    const edited = (edit: (header: DataView) => void) => {
      const bytes = fixtureTexture().slice()
      edit(new DataView(bytes.buffer))
      return transcodeKtx2(bytes)
    }
    await expect(edited((header) => header.setUint32(40, 40, true))).rejects.toThrow(
      'the KTX2 texture is damaged (it says 40 levels of a 512×512 texture)',
    )
    await expect(edited((header) => header.setUint32(36, 2, true))).rejects.toThrow(
      'the KTX2 texture is damaged (it says 2 faces)',
    )
    // A cube map of 4,096 layers: 512² with its levels is 1.3 MB, times 6 faces and 4,096 layers.
    await expect(
      edited((header) => {
        header.setUint32(32, 4096, true)
        header.setUint32(36, 6, true)
      }),
    ).rejects.toThrow(
      'the KTX2 texture is 512×512 with 10 levels, 4096 layers, 6 faces, 32768 MB as pixels, over the 96 MB the preview transcodes a texture',
    )
    // The first level's data said to inflate to 4 GB (the high half of its 64-bit length).
    await expect(edited((header) => header.setUint32(80 + 16 + 4, 1, true))).rejects.toThrow(
      'the KTX2 texture is 512×512 with 10 levels and says its levels inflate to 4096 MB, over the 96 MB the preview transcodes a texture',
    )
  })
})
