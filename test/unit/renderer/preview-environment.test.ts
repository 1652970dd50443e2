import { PMREMGenerator, WebGLCubeRenderTarget, type WebGLRenderer } from 'three'
import { describe, expect, it } from 'vitest'
import { drawsInSoftware, prefilteredTarget } from '#renderer/features/skus/preview/environment.ts'

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
  it('is 64 texels a side where WebGL is drawn in software, not three’s 256', () => {
    const target = prefilteredTarget(true)!
    expect(target.width).toBe(64)
    expect(sides(target)).toEqual([64, 32, 16, 8])
    expect(sides(threesOwn(256))).toEqual([256, 128, 64, 32, 16, 8])
  })

  it('is laid out as PMREMGenerator’s own, so the renderer reads it as one', () => {
    const ours = prefilteredTarget(true)!
    const own = threesOwn(256)
    expect(ours.texture.isPMREMTexture).toBe(true)
    for (const key of ['type', 'colorSpace', 'minFilter', 'magFilter', 'generateMipmaps', 'name'] as const) {
      expect(ours.texture[key], key).toBe(own.texture[key])
    }
    expect(ours.depthBuffer).toBe(own.depthBuffer)
    // The last level is as small as three's: the roughest level means the same in both.
    expect(sides(ours).at(-1)).toBe(sides(own).at(-1))
  })

  it('is three’s own with a graphics card', () => {
    expect(prefilteredTarget(false)).toBeUndefined()
  })
})

describe('whether WebGL is drawn without a graphics card', () => {
  /** A context that names its renderer as `name`, unmasked or (when the extension is missing) plain. */
  const context = (name: string, unmasked = true) =>
    ({
      RENDERER: 0x1f01,
      getExtension: (extension: string) =>
        unmasked && extension === 'WEBGL_debug_renderer_info' ? { UNMASKED_RENDERER_WEBGL: 0x9246 } : null,
      getParameter: (parameter: number) =>
        parameter === (unmasked ? 0x9246 : 0x1f01) ? name : 'WebKit WebGL',
    }) as unknown as WebGL2RenderingContext

  it('reads the renderer’s names of the software ones', () => {
    // What Chromium reports on these machines (no GPU, --disable-gpu).
    const swiftShader =
      'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)'
    expect(drawsInSoftware(context(swiftShader))).toBe(true)
    expect(drawsInSoftware(context('llvmpipe (LLVM 15.0.6, 256 bits)'))).toBe(true)
    expect(
      drawsInSoftware(context('ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0)')),
    ).toBe(true)
    expect(drawsInSoftware(context('Mesa llvmpipe', false))).toBe(true)
  })

  it('takes a graphics card’s name, or none, for a graphics card', () => {
    expect(
      drawsInSoftware(context('ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)')),
    ).toBe(false)
    expect(drawsInSoftware(context('Apple M1'))).toBe(false)
    expect(drawsInSoftware(context('WebKit WebGL', false))).toBe(false)
  })
})
