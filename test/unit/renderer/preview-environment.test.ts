import { PMREMGenerator, WebGLCubeRenderTarget, type WebGLRenderer } from 'three'
import { describe, expect, it } from 'vitest'
import { prefilteredTarget } from '#renderer/features/skus/preview/environment.ts'

/** The sides of a cube's levels, largest first. */
const sides = (target: WebGLCubeRenderTarget) =>
  (target.texture.mipmaps as Array<{ width: number; height: number }>).map(({ width, height }) => {
    expect(height).toBe(width)
    return width
  })

/**
 * The cube PMREMGenerator itself allocates for a picture of `width` (it needs no WebGL for that).
 * Private methods of three's: this test is what tells, at a three.js upgrade, that the layout the
 * preview copies has changed.
 */
function threesOwn(width: number): WebGLCubeRenderTarget {
  const generator = new PMREMGenerator(undefined as unknown as WebGLRenderer) as unknown as {
    _setSize(cubeSize: number): void
    _allocateTarget(): WebGLCubeRenderTarget
  }
  generator._setSize(width / 4)
  return generator._allocateTarget()
}

describe('the cube the preview prefilters an environment into', () => {
  it('is as big as the bundled studio’s detail (256 × 128: 64 texels a side), not three’s 256', () => {
    const target = prefilteredTarget(256)!
    expect(target.width).toBe(64)
    expect(sides(target)).toEqual([64, 32, 16, 8])
    expect(sides(threesOwn(256))).toEqual([256, 128, 64, 32, 16, 8])
  })

  it('is laid out as PMREMGenerator’s own, so the renderer reads it as one', () => {
    const ours = prefilteredTarget(256)!
    const own = threesOwn(256)
    expect(ours.texture.isPMREMTexture).toBe(true)
    for (const key of ['type', 'colorSpace', 'minFilter', 'magFilter', 'generateMipmaps', 'name'] as const) {
      expect(ours.texture[key], key).toBe(own.texture[key])
    }
    expect(ours.depthBuffer).toBe(own.depthBuffer)
    // The last level is as small as three's: the roughest level means the same in both.
    expect(sides(ours).at(-1)).toBe(sides(own).at(-1))
  })

  it('follows the picture up to three’s smallest cube, and leaves larger pictures to three', () => {
    expect(prefilteredTarget(512)!.width).toBe(128)
    expect(prefilteredTarget(1000)!.width).toBe(128)
    expect(prefilteredTarget(1024)).toBeUndefined()
    expect(prefilteredTarget(4096)).toBeUndefined()
  })

  it('has four levels at least, its first a mirror’s, however small the picture', () => {
    for (const width of [1, 16, 100, 255]) {
      expect(sides(prefilteredTarget(width)!), `${width} wide`).toEqual([64, 32, 16, 8])
    }
  })
})
