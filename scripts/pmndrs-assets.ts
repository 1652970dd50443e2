/**
 * What the asset scripts share: the CC0 assets of `@pmndrs/assets` as bytes, and a glTF-Transform
 * NodeIO that reads and writes every extension they meet (Draco included).
 */
import { readFile } from 'node:fs/promises'
import { NodeIO } from '@gltf-transform/core'
import { ALL_EXTENSIONS } from '@gltf-transform/extensions'
import draco3d from 'draco3dgltf'

/**
 * An asset of `@pmndrs/assets` (`models/suzi.glb`, `textures/react.webp`, …) as bytes. The package
 * ships each file as a JS module whose default export is a base64 data URL.
 */
export async function pmndrsAsset(path: string): Promise<Uint8Array> {
  const module = (await import(`@pmndrs/assets/${path}.js`)) as { default: string }
  return dataUrlBytes(module.default)
}

/** The bytes of a base64 `data:` URL. */
export function dataUrlBytes(url: string): Uint8Array {
  const match = /^data:[^,]*;base64,(.*)$/s.exec(url)
  if (!match?.[1]) throw new Error(`not a base64 data URL: ${url.slice(0, 40)}…`)
  return new Uint8Array(Buffer.from(match[1], 'base64'))
}

/**
 * The version of an installed package, for the log the fixtures' README quotes. Read from
 * node_modules itself: not every package exports its package.json.
 */
export async function packageVersion(name: string): Promise<string> {
  const file = new URL(`../node_modules/${name}/package.json`, import.meta.url)
  return (JSON.parse(await readFile(file, 'utf8')) as { version: string }).version
}

/**
 * A NodeIO that knows every extension glTF-Transform implements, with Draco's decoder and encoder:
 * the pmndrs models are Draco-compressed, and a model written with KHR_draco_mesh_compression needs
 * the encoder.
 */
export async function createIO(): Promise<NodeIO> {
  return new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
    'draco3d.decoder': await draco3d.createDecoderModule(),
    'draco3d.encoder': await draco3d.createEncoderModule(),
  })
}
