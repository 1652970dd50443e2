/**
 * A large Draco GLB made in memory for benchmarks (5 MB by default, within 5%): copies of the CC0
 * Suzanne from `@pmndrs/assets` laid out on a grid in one mesh, Draco-compressed with draco3dgltf's
 * encoder. Made on demand rather than committed: the repository keeps only small fixtures.
 *
 *   import { largeDracoModel } from '../scripts/large-draco-model.ts'
 *   const { glb } = await largeDracoModel()
 */
import { Document, type NodeIO } from '@gltf-transform/core'
import { KHRDracoMeshCompression } from '@gltf-transform/extensions'
import { createIO, pmndrsAsset } from './pmndrs-assets.ts'

export interface LargeDracoModel {
  glb: Uint8Array
  /** How many copies of Suzanne the one mesh holds. */
  copies: number
  triangles: number
  vertices: number
}

/** Suzanne's geometry, decoded: what each copy repeats. */
interface Geometry {
  positions: Float32Array
  normals: Float32Array
  indices: Uint32Array
}

/** Copies of the first try, which measures what one costs. */
const FIRST_COPIES = 8
/** How close to the target the size must come, and the tries allowed to get there. */
const TOLERANCE = 0.05
const TRIES = 5
/** Room between copies on the grid, in Suzanne's widths (she is about 1.9 wide). */
const SPACING = 2.5

/**
 * A Draco GLB of about `targetBytes` (within 5%). A copy costs fewer bytes the more copies the
 * mesh holds (Draco's quantization and entropy coding share more), so the count is corrected from
 * the size each try measured until one lands close enough. The same target gives the same bytes.
 */
export async function largeDracoModel(targetBytes = 5_000_000): Promise<LargeDracoModel> {
  const io = await createIO()
  const suzanne = await decodedGeometry(io)
  let copies = FIRST_COPIES
  let glb = await dracoGlb(io, suzanne, copies)
  for (let tries = 1; tries < TRIES && Math.abs(glb.length / targetBytes - 1) > TOLERANCE; tries++) {
    copies = Math.max(1, Math.round((copies * targetBytes) / glb.length))
    glb = await dracoGlb(io, suzanne, copies)
  }
  return {
    glb,
    copies,
    triangles: (copies * suzanne.indices.length) / 3,
    vertices: (copies * suzanne.positions.length) / 3,
  }
}

/** Suzanne's positions, normals and indices, Draco decoded by glTF-Transform on reading. */
async function decodedGeometry(io: NodeIO): Promise<Geometry> {
  const document = await io.readBinary(await pmndrsAsset('models/suzi.glb'))
  const primitive = document.getRoot().listMeshes()[0]?.listPrimitives()[0]
  const positions = primitive?.getAttribute('POSITION')?.getArray()
  const normals = primitive?.getAttribute('NORMAL')?.getArray()
  const indices = primitive?.getIndices()?.getArray()
  if (!(positions instanceof Float32Array) || !(normals instanceof Float32Array) || !indices) {
    throw new Error('suzi.glb is not the indexed mesh with positions and normals it used to be')
  }
  return { positions, normals, indices: Uint32Array.from(indices) }
}

/** A GLB of one mesh holding `copies` of the geometry on a square grid, Draco-compressed. */
async function dracoGlb(io: NodeIO, geometry: Geometry, copies: number): Promise<Uint8Array> {
  const { positions, normals, indices } = repeated(geometry, copies)
  const document = new Document()
  const buffer = document.createBuffer()
  const accessor = (type: 'VEC3' | 'SCALAR', array: Float32Array | Uint32Array) =>
    document.createAccessor().setType(type).setArray(array).setBuffer(buffer)
  const primitive = document
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', positions))
    .setAttribute('NORMAL', accessor('VEC3', normals))
    .setIndices(accessor('SCALAR', indices))
    .setMaterial(document.createMaterial('base').setRoughnessFactor(0.5).setMetallicFactor(0))
  const node = document
    .createNode('suzannes')
    .setMesh(document.createMesh('suzannes').addPrimitive(primitive))
  document.createScene('scene').addChild(node)
  document.createExtension(KHRDracoMeshCompression).setRequired(true)
  return io.writeBinary(document)
}

/** The geometry repeated on a square grid in the XY plane, each copy offset by SPACING. */
function repeated({ positions, normals, indices }: Geometry, copies: number): Geometry {
  const vertices = positions.length / 3
  const side = Math.ceil(Math.sqrt(copies))
  const out = {
    positions: new Float32Array(positions.length * copies),
    normals: new Float32Array(normals.length * copies),
    indices: new Uint32Array(indices.length * copies),
  }
  for (let copy = 0; copy < copies; copy++) {
    const [dx, dy] = [(copy % side) * SPACING, Math.floor(copy / side) * SPACING]
    for (let i = 0; i < positions.length; i += 3) {
      const at = copy * positions.length + i
      out.positions[at] = positions[i]! + dx
      out.positions[at + 1] = positions[i + 1]! + dy
      out.positions[at + 2] = positions[i + 2]!
    }
    out.normals.set(normals, copy * normals.length)
    for (let i = 0; i < indices.length; i++)
      out.indices[copy * indices.length + i] = indices[i]! + copy * vertices
  }
  return out
}
