/**
 * Generates the AR preview's bundled samples, so anyone can see (and redo) how they were made:
 *
 *   node resources/preview/generate.ts
 *
 * - sample-glasses.glb: a pair of acetate glasses (frame front, two tinted lenses, two temples) at
 *   real-world size in metres, centred at the bridge, facing +Z with +Y up (glTF's convention),
 *   with a small tortoiseshell texture embedded in the file.
 * - studio.hdr: a small equirectangular Radiance (RGBE) studio: a soft grey room, a large softbox
 *   overhead, a key light front left and a rim light behind right.
 *
 * The output is deterministic: the same script writes the same bytes.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PNG } from 'pngjs'
import {
  BufferAttribute,
  BufferGeometry,
  ExtrudeGeometry,
  Group,
  Mesh,
  MeshStandardMaterial,
  Shape,
  type ExtrudeGeometryOptions,
} from 'three'
import { GLTFExporter } from 'three/addons/exporters/GLTFExporter.js'
import { mergeVertices } from 'three/addons/utils/BufferGeometryUtils.js'

const here = dirname(fileURLToPath(import.meta.url))

// ---------------------------------------------------------------------------------------------
// The glasses. Sizes in metres, from a typical 50-18-145 acetate frame.

const LENS_WIDTH = 0.05
const LENS_HEIGHT = 0.04
const BRIDGE = 0.018
const TEMPLE_LENGTH = 0.145
const RIM = 0.005
const FRONT_DEPTH = 0.006
/** Lenses sit a little below the bridge, as on a real frame. */
const LENS_DROP = 0.004
const LENS_CENTRE_X = BRIDGE / 2 + LENS_WIDTH / 2

/** A rounded trapezoid, wider at the top: the outline of a wayfarer-style lens. */
function lensOutline(cx: number, cy: number, grow: number, flip: boolean): Shape {
  const top = LENS_WIDTH / 2 + grow
  const bottom = LENS_WIDTH / 2 - 0.003 + grow
  const half = LENS_HEIGHT / 2 + grow
  const r = 0.012 + grow
  // The outer top corner sits higher than the inner one, as frames sweep up toward the temples.
  const lift = 0.002
  const side = flip ? -1 : 1
  const p = (x: number, y: number): [number, number] => [cx + side * x, cy + y]
  const corners = [p(-top, half), p(top, half + lift), p(bottom, -half), p(-bottom, -half)]
  const shape = new Shape()
  corners.forEach((corner, i) => {
    const previous = corners[(i + corners.length - 1) % corners.length]!
    const next = corners[(i + 1) % corners.length]!
    const towards = (to: [number, number], length: number): [number, number] => {
      const dx = to[0] - corner[0]
      const dy = to[1] - corner[1]
      const d = Math.hypot(dx, dy)
      return [corner[0] + (dx / d) * length, corner[1] + (dy / d) * length]
    }
    const start = towards(previous, r)
    const end = towards(next, r)
    if (i === 0) shape.moveTo(...start)
    else shape.lineTo(...start)
    shape.quadraticCurveTo(corner[0], corner[1], ...end)
  })
  shape.closePath()
  return shape
}

function extrude(shape: Shape, depth: number, options: ExtrudeGeometryOptions = {}): ExtrudeGeometry {
  const geometry = new ExtrudeGeometry(shape, { depth, bevelEnabled: false, curveSegments: 10, ...options })
  geometry.translate(0, 0, -depth / 2)
  return geometry
}

/** ExtrudeGeometry's UVs are in metres; the tortoiseshell pattern should repeat every 4 cm. */
function scaleUvs(geometry: BufferGeometry, metresPerRepeat: number): BufferGeometry {
  const uv = geometry.getAttribute('uv') as BufferAttribute
  for (let i = 0; i < uv.count; i++) uv.setXY(i, uv.getX(i) / metresPerRepeat, uv.getY(i) / metresPerRepeat)
  return geometry
}

function rimGeometry(side: 1 | -1): BufferGeometry {
  const cx = side * LENS_CENTRE_X
  const outer = lensOutline(cx, -LENS_DROP, RIM, side < 0)
  outer.holes.push(lensOutline(cx, -LENS_DROP, 0, side < 0))
  return extrude(outer, FRONT_DEPTH, {
    bevelEnabled: true,
    bevelThickness: 0.0008,
    bevelSize: 0.0006,
    bevelSegments: 2,
    curveSegments: 8,
  })
}

function bridgeGeometry(): BufferGeometry {
  const half = BRIDGE / 2 + 0.002
  const shape = new Shape()
  shape.moveTo(-half, 0.004)
  shape.lineTo(-half, 0.013)
  shape.quadraticCurveTo(0, 0.0115, half, 0.013)
  shape.lineTo(half, 0.004)
  // The arch over the nose.
  shape.quadraticCurveTo(0, 0.0085, -half, 0.004)
  return extrude(shape, FRONT_DEPTH * 0.8, { curveSegments: 8 })
}

/** The hinge block at the outer top of each rim, where the temple joins the front. */
function endPieceGeometry(side: 1 | -1): BufferGeometry {
  const x = side * (LENS_CENTRE_X + LENS_WIDTH / 2 + RIM - 0.001)
  const shape = new Shape()
  shape.moveTo(x - 0.003, 0.004)
  shape.lineTo(x + 0.003, 0.004)
  shape.lineTo(x + 0.003, 0.015)
  shape.lineTo(x - 0.003, 0.015)
  shape.closePath()
  const geometry = extrude(shape, 0.012)
  geometry.translate(0, 0, -0.006)
  return geometry
}

/** A temple: its side profile (length along -Z, height along Y), 3 mm thick along X. */
function templeGeometry(side: 1 | -1): BufferGeometry {
  const profile = new Shape()
  profile.moveTo(0, 0.0145)
  profile.lineTo(0.108, 0.0125)
  profile.quadraticCurveTo(0.128, 0.0118, TEMPLE_LENGTH - 0.003, -0.018)
  profile.quadraticCurveTo(TEMPLE_LENGTH - 0.004, -0.0215, TEMPLE_LENGTH - 0.008, -0.0195)
  profile.quadraticCurveTo(0.124, 0.0075, 0.104, 0.0085)
  profile.lineTo(0, 0.0055)
  profile.closePath()
  const thickness = 0.003
  const geometry = new ExtrudeGeometry(profile, { depth: thickness, bevelEnabled: false, curveSegments: 12 })
  // Profile x runs back along -Z; the extrusion (local +Z) becomes the thickness along world X.
  geometry.rotateY(Math.PI / 2)
  const outer = LENS_CENTRE_X + LENS_WIDTH / 2 + RIM + 0.0015
  geometry.translate(side > 0 ? outer - thickness : -outer, 0, -0.004)
  return geometry
}

function glasses(): Group {
  const acetate = new MeshStandardMaterial({ name: 'Tortoiseshell acetate', roughness: 0.28, metalness: 0 })
  const lens = new MeshStandardMaterial({
    name: 'Grey-green tinted lens',
    color: 0x3d5246,
    roughness: 0.04,
    metalness: 0,
    transparent: true,
    opacity: 0.62,
  })
  const frame = new Group()
  frame.name = 'Sample glasses'
  const parts: Array<[string, BufferGeometry, MeshStandardMaterial]> = [
    ['Rim left', rimGeometry(-1), acetate],
    ['Rim right', rimGeometry(1), acetate],
    ['Bridge', bridgeGeometry(), acetate],
    ['End piece left', endPieceGeometry(-1), acetate],
    ['End piece right', endPieceGeometry(1), acetate],
    ['Temple left', templeGeometry(-1), acetate],
    ['Temple right', templeGeometry(1), acetate],
    ['Lens left', extrude(lensOutline(-LENS_CENTRE_X, -LENS_DROP, 0.0008, true), 0.0015), lens],
    ['Lens right', extrude(lensOutline(LENS_CENTRE_X, -LENS_DROP, 0.0008, false), 0.0015), lens],
  ]
  for (const [name, geometry, material] of parts) {
    if (material === acetate) scaleUvs(geometry, 0.04)
    else geometry.deleteAttribute('uv')
    // ExtrudeGeometry repeats every corner of every triangle, each with a flat normal. Sharing the
    // corners keeps the file small, and normals computed again shade the curved walls smoothly
    // (the faces' own UVs keep caps and walls apart, so their edges stay crisp).
    geometry.deleteAttribute('normal')
    const shared = mergeVertices(geometry, 1e-6)
    shared.computeVertexNormals()
    const mesh = new Mesh(shared, material)
    mesh.name = name
    frame.add(mesh)
  }
  return frame
}

// ---------------------------------------------------------------------------------------------
// A small seamless tortoiseshell texture: layered value noise thresholded into amber patches.

/** A tiny deterministic random generator (mulberry32), so the texture is the same on every run. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Value noise on a wrapping grid, so the texture tiles without seams. */
function tileableNoise(size: number, cells: number, next: () => number): Float32Array {
  const grid = Array.from({ length: cells * cells }, next)
  const at = (x: number, y: number) => grid[((y + cells) % cells) * cells + ((x + cells) % cells)]!
  const smooth = (t: number) => t * t * (3 - 2 * t)
  const out = new Float32Array(size * size)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const gx = (x / size) * cells
      const gy = (y / size) * cells
      const x0 = Math.floor(gx)
      const y0 = Math.floor(gy)
      const tx = smooth(gx - x0)
      const ty = smooth(gy - y0)
      const top = at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx
      const bottom = at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx
      out[y * size + x] = top * (1 - ty) + bottom * ty
    }
  }
  return out
}

function tortoiseshellPng(size = 96): Buffer {
  const next = random(20_26)
  const octaves = [
    [4, 0.55],
    [8, 0.3],
    [16, 0.15],
  ].map(([cells, weight]) => ({ noise: tileableNoise(size, cells!, next), weight: weight! }))
  // A honey tortoiseshell: mostly mid-tones, where tone mapping curves differ most visibly.
  const dark = [52, 26, 12]
  const mid = [128, 68, 24]
  const amber = [206, 142, 62]
  const png = new PNG({ width: size, height: size, colorType: 2 })
  for (let i = 0; i < size * size; i++) {
    const n = octaves.reduce((sum, octave) => sum + octave.noise[i]! * octave.weight, 0)
    // Dark spots in mid-brown clouds, with amber patches.
    const toMid = Math.min(1, Math.max(0, (n - 0.38) / 0.1))
    const toAmber = Math.min(1, Math.max(0, (n - 0.52) / 0.1))
    for (let c = 0; c < 3; c++) {
      const value = dark[c]! + (mid[c]! - dark[c]!) * toMid + (amber[c]! - mid[c]!) * toAmber
      png.data[i * 4 + c] = Math.round(value)
    }
    png.data[i * 4 + 3] = 255
  }
  return PNG.sync.write(png, { colorType: 2 })
}

// ---------------------------------------------------------------------------------------------
// GLB: GLTFExporter writes the geometry and materials; the texture is added to its output here,
// since the exporter needs a canvas (a browser) to encode images.

/** GLTFExporter reads its merged buffers through a FileReader, which Node does not have. */
class BlobReader {
  result: ArrayBuffer | null = null
  onloadend: (() => void) | null = null
  readAsArrayBuffer(blob: Blob) {
    void blob.arrayBuffer().then((buffer) => {
      this.result = buffer
      this.onloadend?.()
    })
  }
}

interface GltfJson {
  buffers: Array<{ byteLength: number }>
  bufferViews: Array<{ buffer: number; byteOffset?: number; byteLength: number }>
  materials: Array<{ name?: string; pbrMetallicRoughness?: Record<string, unknown> }>
  images?: unknown[]
  textures?: unknown[]
  samplers?: unknown[]
  asset: Record<string, unknown>
}

const GLB_MAGIC = 0x46546c67 // "glTF"
const CHUNK_JSON = 0x4e4f534a
const CHUNK_BIN = 0x004e4942

function readGlb(glb: Buffer): { json: GltfJson; bin: Buffer } {
  if (glb.readUInt32LE(0) !== GLB_MAGIC) throw new Error('not a GLB')
  const jsonLength = glb.readUInt32LE(12)
  const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8')) as GltfJson
  const binStart = 20 + jsonLength
  const bin = glb.subarray(binStart + 8, binStart + 8 + glb.readUInt32LE(binStart))
  return { json, bin }
}

function pad(buffer: Buffer, fill: number): Buffer {
  const extra = (4 - (buffer.length % 4)) % 4
  return Buffer.concat([buffer, Buffer.alloc(extra, fill)])
}

/** The GLB container: a 12-byte header, then a JSON chunk and a BIN chunk, each 4-byte aligned. */
function writeGlb(json: GltfJson, bin: Buffer): Buffer {
  const jsonChunk = pad(Buffer.from(JSON.stringify(json), 'utf8'), 0x20)
  const binChunk = pad(bin, 0)
  const header = Buffer.alloc(12)
  const total = 12 + 8 + jsonChunk.length + 8 + binChunk.length
  header.writeUInt32LE(GLB_MAGIC, 0)
  header.writeUInt32LE(2, 4)
  header.writeUInt32LE(total, 8)
  const chunkHeader = (length: number, type: number) => {
    const chunk = Buffer.alloc(8)
    chunk.writeUInt32LE(length, 0)
    chunk.writeUInt32LE(type, 4)
    return chunk
  }
  return Buffer.concat([
    header,
    chunkHeader(jsonChunk.length, CHUNK_JSON),
    jsonChunk,
    chunkHeader(binChunk.length, CHUNK_BIN),
    binChunk,
  ])
}

/** Appends a PNG to the BIN chunk and makes it the base colour of the named material. */
function withTexture(glb: Buffer, materialName: string, png: Buffer): Buffer {
  const { json, bin } = readGlb(glb)
  const aligned = pad(Buffer.from(bin), 0)
  json.bufferViews.push({ buffer: 0, byteOffset: aligned.length, byteLength: png.length })
  json.images = [{ bufferView: json.bufferViews.length - 1, mimeType: 'image/png', name: 'tortoiseshell' }]
  // 10497 = REPEAT, 9729 = LINEAR, 9987 = LINEAR_MIPMAP_LINEAR.
  json.samplers = [{ magFilter: 9729, minFilter: 9987, wrapS: 10497, wrapT: 10497 }]
  json.textures = [{ sampler: 0, source: 0 }]
  const material = json.materials.find((m) => m.name === materialName)
  if (!material) throw new Error(`no material ${materialName}`)
  material.pbrMetallicRoughness = { ...material.pbrMetallicRoughness, baseColorTexture: { index: 0 } }
  const merged = Buffer.concat([aligned, png])
  json.buffers[0]!.byteLength = merged.length
  return writeGlb(json, merged)
}

async function exportGlb(scene: Group): Promise<Buffer> {
  const globals = globalThis as { FileReader?: unknown }
  globals.FileReader ??= BlobReader
  const result = await new GLTFExporter().parseAsync(scene, { binary: true })
  return Buffer.from(result as ArrayBuffer)
}

// ---------------------------------------------------------------------------------------------
// The studio environment, as linear radiance in an equirectangular image.

const ENV_WIDTH = 256
const ENV_HEIGHT = 128

/** Radiance of a direction (x right, y up, z toward the default camera). */
function studioRadiance(x: number, y: number, z: number): [number, number, number] {
  // Walls: a soft grey, lighter toward the ceiling; the floor a darker warm grey.
  const wall = y >= 0 ? 0.55 + 0.35 * y : 0.32 + 0.12 * (1 + y)
  let r = wall
  const g = wall
  let b = wall * 1.02
  if (y < 0) {
    r *= 1.03
    b *= 0.96
  }
  // Softboxes: bright rectangles with soft edges, given by a direction and an angular size.
  const box = (dx: number, dy: number, dz: number, width: number, height: number, power: number) => {
    const length = Math.hypot(dx, dy, dz)
    const [cx, cy, cz] = [dx / length, dy / length, dz / length]
    const cos = x * cx + y * cy + z * cz
    if (cos <= 0) return 0
    // Angular distance across (in the horizontal plane) and up, relative to the box's centre.
    const across = Math.atan2(x * cz - z * cx, x * cx + z * cz)
    const up = Math.asin(Math.max(-1, Math.min(1, y))) - Math.asin(cy)
    const edge = (value: number, half: number) => 1 / (1 + Math.exp((Math.abs(value) - half) / 0.03))
    return power * edge(across, width / 2) * edge(up, height / 2)
  }
  const overhead = y > 0.75 ? 5 * Math.min(1, (y - 0.75) / 0.12) : 0
  const key = box(-0.7, 0.45, 0.75, 0.7, 0.55, 7)
  const rim = box(0.85, 0.3, -0.6, 0.3, 0.8, 4)
  const fill = box(0.9, 0.1, 0.6, 0.6, 0.5, 1.2)
  const light = overhead + key + rim + fill
  return [r + light, g + light * 0.99, b + light * 0.97]
}

/** One RGBE pixel: a shared exponent for the three channels (Greg Ward's Radiance format). */
function rgbe([r, g, b]: [number, number, number]): [number, number, number, number] {
  const v = Math.max(r, g, b)
  if (v < 1e-32) return [0, 0, 0, 0]
  const exponent = Math.floor(Math.log2(v)) + 1
  const scale = 256 / 2 ** exponent
  return [Math.floor(r * scale), Math.floor(g * scale), Math.floor(b * scale), exponent + 128]
}

function studioHdr(): Buffer {
  const header = Buffer.from(
    `#?RADIANCE\n# Catalog Desk preview studio, generated by resources/preview/generate.ts\n` +
      `FORMAT=32-bit_rle_rgbe\n\n-Y ${ENV_HEIGHT} +X ${ENV_WIDTH}\n`,
    'ascii',
  )
  // Flat (not run-length encoded) scanlines: readers accept them and the file stays small enough.
  const pixels = Buffer.alloc(ENV_WIDTH * ENV_HEIGHT * 4)
  for (let row = 0; row < ENV_HEIGHT; row++) {
    // Row 0 is the top of the image: straight up.
    const elevation = Math.PI / 2 - ((row + 0.5) / ENV_HEIGHT) * Math.PI
    for (let column = 0; column < ENV_WIDTH; column++) {
      // three.js's equirectangular mapping: u = atan2(z, x) / 2π + 0.5.
      const azimuth = ((column + 0.5) / ENV_WIDTH - 0.5) * 2 * Math.PI
      const x = Math.cos(elevation) * Math.cos(azimuth)
      const z = Math.cos(elevation) * Math.sin(azimuth)
      const y = Math.sin(elevation)
      pixels.set(rgbe(studioRadiance(x, y, z)), (row * ENV_WIDTH + column) * 4)
    }
  }
  return Buffer.concat([header, pixels])
}

// ---------------------------------------------------------------------------------------------
// The sample product photo: the glasses seen from the front, drawn as two rims and a bridge on a
// light studio backdrop, for the template's sample picture addresses (src/shared/sample-assets.ts).

const PHOTO_WIDTH = 320
const PHOTO_HEIGHT = 200

function productPng(): Buffer {
  const png = new PNG({ width: PHOTO_WIDTH, height: PHOTO_HEIGHT, colorType: 2 })
  const rims = [
    { cx: 104, cy: 96 },
    { cx: 216, cy: 96 },
  ]
  for (let y = 0; y < PHOTO_HEIGHT; y++) {
    for (let x = 0; x < PHOTO_WIDTH; x++) {
      // A backdrop lighter at the top, as the studio's softbox lights it.
      let [r, g, b] = [236 - y * 0.12, 234 - y * 0.12, 230 - y * 0.14]
      // Rounded rims 92 × 72 px with 7 px of acetate; lenses a grey-green tint inside.
      for (const { cx, cy } of rims) {
        const d = Math.hypot((x - cx) / 46, (y - cy) / 36)
        if (d <= 1 && d >= 0.84) [r, g, b] = [92, 52, 28]
        else if (d < 0.84) [r, g, b] = [r * 0.55 + 28, g * 0.6 + 34, b * 0.55 + 26]
      }
      // The bridge between the rims, and the temples' hinges at the sides.
      if (x > 148 && x < 172 && y > 78 && y < 86) [r, g, b] = [92, 52, 28]
      if ((x > 50 && x < 60 && y > 84 && y < 92) || (x > 260 && x < 270 && y > 84 && y < 92))
        [r, g, b] = [92, 52, 28]
      const at = (y * PHOTO_WIDTH + x) * 4
      png.data[at] = Math.round(r)
      png.data[at + 1] = Math.round(g)
      png.data[at + 2] = Math.round(b)
      png.data[at + 3] = 255
    }
  }
  return PNG.sync.write(png, { colorType: 2 })
}

// ---------------------------------------------------------------------------------------------

const glb = withTexture(await exportGlb(glasses()), 'Tortoiseshell acetate', tortoiseshellPng())
writeFileSync(join(here, 'sample-glasses.glb'), glb)
const hdr = studioHdr()
writeFileSync(join(here, 'studio.hdr'), hdr)
const photo = productPng()
writeFileSync(join(here, 'sample-product.png'), photo)
console.log(
  `sample-glasses.glb: ${glb.length} bytes; studio.hdr: ${hdr.length} bytes; sample-product.png: ${photo.length} bytes`,
)
