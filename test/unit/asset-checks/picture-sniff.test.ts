import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { imageBytes, readContainer } from '#shared/asset-checks/gltf-container.ts'
import { sniff } from '#shared/asset-checks/picture-sniff.ts'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'
import { pmndrsModel, pmndrsTexture } from './asset-files.ts'

// What a file is, from its bytes, and a picture's size from its header: real files where the
// project has them (a PNG pngjs writes, the JPEG inside pmndrs.glb, the WebP of @pmndrs/assets,
// the AVIF and KTX2 textures of the fixtures, the preview's Radiance environment), headers made
// byte by byte for the WebP bitstreams no file here uses.

const fixture = (name: string) => new Uint8Array(readFileSync(join(REPO_ROOT, 'test/fixtures/assets', name)))
const firstImage = (glb: Uint8Array) => imageBytes(readContainer(glb)!, () => undefined)[0]!
const text = (value: string) => new TextEncoder().encode(value)

/** A WebP file's first bytes: RIFF header, then the chunk `chunk` with `body`. */
function webp(chunk: string, body: number[]): Uint8Array {
  const bytes = new Uint8Array(20 + body.length)
  bytes.set(text('RIFF'), 0)
  new DataView(bytes.buffer).setUint32(4, 12 + body.length, true)
  bytes.set(text('WEBP'), 8)
  bytes.set(text(chunk), 12)
  new DataView(bytes.buffer).setUint32(16, body.length, true)
  bytes.set(body, 20)
  return bytes
}

describe('sniff', () => {
  it('reads the kind and pixel size of pictures', async () => {
    const png = new PNG({ width: 300, height: 200 })
    expect(sniff(new Uint8Array(PNG.sync.write(png)))).toEqual({
      type: 'image/png',
      words: 'a PNG picture',
      width: 300,
      height: 200,
    })
    expect(sniff(firstImage(await pmndrsModel('pmndrs')))).toMatchObject({
      type: 'image/jpeg',
      width: 2048,
      height: 2048,
    })
    // Lossy with alpha: the extended (VP8X) layout.
    expect(sniff(await pmndrsTexture('react'))).toMatchObject({ type: 'image/webp', width: 512, height: 461 })
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
    expect(sniff(gif)).toMatchObject({ type: 'image/gif', width: 1, height: 1 })
    expect(sniff(firstImage(fixture('avif-textured.glb')))).toMatchObject({
      type: 'image/avif',
      width: 512,
      height: 461,
    })
    expect(sniff(firstImage(fixture('ktx2-textured.glb')))).toMatchObject({
      type: 'image/ktx2',
      width: 512,
      height: 512,
    })
    const hdr = new Uint8Array(readFileSync(join(REPO_ROOT, 'resources/preview/studio.hdr')))
    expect(sniff(hdr)).toMatchObject({ type: 'image/vnd.radiance', width: 256, height: 128 })
  })

  it('reads WebP sizes from each bitstream', () => {
    // Lossy: frame tag, start code 9d 01 2a, then 14-bit width and height.
    expect(sniff(webp('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0xe0, 0x01]))).toMatchObject({
      width: 640,
      height: 480,
    })
    // Lossless: signature 0x2f, then width − 1 and height − 1 in 14 bits each.
    const bits = 639 | (479 << 14)
    expect(
      sniff(webp('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >>> 24])),
    ).toMatchObject({
      width: 640,
      height: 480,
    })
  })

  it('tells what an address gives instead of a picture', async () => {
    expect(sniff(text('\uFEFF\n  <!DOCTYPE html><html><body>Sign in</body></html>'))?.type).toBe('text/html')
    expect(sniff(text('<html lang="en">'))?.type).toBe('text/html')
    expect(sniff(text('<!-- a comment --><div>x</div>'))?.type).toBe('text/html')
    expect(sniff(text('{"error": "not found"}'))?.type).toBe('application/json')
    expect(sniff(text('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'))?.type).toBe(
      'image/svg+xml',
    )
    expect(sniff(text('<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>'))?.type).toBe(
      'application/xml',
    )
    expect(sniff(fixture('external/textured.gltf'))?.type).toBe('model/gltf+json')
    expect(sniff(await pmndrsModel('bunny'))?.type).toBe('model/gltf-binary')
    expect(sniff(text('just some words'))).toBeUndefined()
    expect(sniff(new Uint8Array())).toBeUndefined()
  })

  it('reads no further than the bytes there are', () => {
    const png = new PNG({ width: 300, height: 200 })
    const cut = new Uint8Array(PNG.sync.write(png)).subarray(0, 12)
    expect(sniff(cut)).toEqual({ type: 'image/png', words: 'a PNG picture' })
    expect(sniff(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]))).toEqual({
      type: 'image/jpeg',
      words: 'a JPEG picture',
    })
    expect(sniff(webp('VP8X', [0, 0]))).toEqual({ type: 'image/webp', words: 'a WebP picture' })
  })
})

describe('imageBytes', () => {
  it('gives a GLB’s images from its buffer views, and none for a model that holds no images', async () => {
    const images = imageBytes(readContainer(await pmndrsModel('pmndrs'))!, () => undefined)
    expect(images).toHaveLength(1)
    expect(sniff(images[0]!)).toMatchObject({ type: 'image/jpeg', width: 2048, height: 2048 })
    const plain = readContainer(await pmndrsModel('bunny'))!
    expect(plain.json.images).toBeUndefined()
    expect(imageBytes(plain, () => undefined)).toEqual([])
  })

  it('finds the images of a .gltf, their key written plainly or with \\u escapes', () => {
    const photo = new Uint8Array([0xff, 0xd8, 0xff])
    const external = (uri: string) => (uri === 'photo.jpg' ? photo : undefined)
    const gltf = (key: string) =>
      readContainer(
        new TextEncoder().encode(`{"asset": {"version": "2.0"}, "${key}": [{"uri": "photo.jpg"}]}`),
      )!
    expect(imageBytes(gltf('images'), external)).toEqual([photo])
    expect(imageBytes(gltf('im\\u0061ges'), external)).toEqual([photo])
    expect(imageBytes(gltf('pictures'), external)).toEqual([])
  })
})
