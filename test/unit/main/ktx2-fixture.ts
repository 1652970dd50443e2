import { readFileSync } from 'node:fs'

/** The KTX2 texture inside the derived fixture (test/fixtures/assets/README.md): React's logo, cyan at its centre. */
export function fixtureTexture(): Uint8Array {
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

/** A texture file of test/fixtures/assets/, as bytes of its own. */
export function fixtureFile(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../fixtures/assets/${name}`, import.meta.url)))
}
