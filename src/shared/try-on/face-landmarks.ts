/**
 * A face as the try-on reads it (issue #39): what the face-landmark model found on one picture,
 * in the picture's own pixels, and the few points a frame sits on. The model's mesh is
 * MediaPipe's (468 points, then the two irises' five points each); the indices below are that
 * mesh's. "Right" and "left" are the subject's own (their right eye is on the picture's left).
 */

/** One point of the mesh: x and y in the picture's pixels (from its top left), z as deep as x. */
export type MeshPoint = readonly [x: number, y: number, z: number]

export interface FaceLandmarks {
  /** The picture's size in pixels, which the points are measured in. */
  width: number
  height: number
  /** The mesh, 478 points (468 for the face, then each iris's centre and four rim points). */
  mesh: readonly MeshPoint[]
  /** The head's turn, in radians: roll (tilt to a shoulder), yaw (left-right), pitch (nod). */
  rotation: { roll: number; yaw: number; pitch: number }
}

/** Where a frame sits, in the picture's pixels (x, y; z as the mesh's). */
export interface FaceAnchors {
  rightPupil: MeshPoint
  leftPupil: MeshPoint
  /** Between the eyes, where a frame's bridge rests (mesh 168). */
  noseBridge: MeshPoint
  /** The sides of the head at cheekbone height, toward the ears (mesh 234 and 454). */
  rightSide: MeshPoint
  leftSide: MeshPoint
}

/** The mesh's indices of the points above. */
export const MESH = {
  noseBridge: 168,
  rightSide: 234,
  leftSide: 454,
  /** The right eye's outer and inner corners. */
  rightEye: [33, 133],
  /** The left eye's inner and outer corners. */
  leftEye: [362, 263],
  /** The two iris centres: which is which is told by the eye corners, never by the index alone. */
  irisCentres: [468, 473],
} as const

const MIN_MESH_POINTS = 478

/**
 * The anchors of a face. Each iris centre goes to the eye whose corners it lies between: the
 * model's own order of the two has differed between its versions and ports.
 */
export function faceAnchors({ mesh }: FaceLandmarks): FaceAnchors {
  if (mesh.length < MIN_MESH_POINTS)
    throw new Error(
      `A face needs ${MIN_MESH_POINTS} mesh points with the irises; this one has ${mesh.length}.`,
    )
  const at = (index: number): MeshPoint => mesh[index]!
  const eyeCentre = ([a, b]: readonly [number, number]) => (at(a)[0] + at(b)[0]) / 2
  const [first, second] = MESH.irisCentres.map(at) as [MeshPoint, MeshPoint]
  const rightX = eyeCentre(MESH.rightEye)
  const firstIsRight = Math.abs(first[0] - rightX) <= Math.abs(second[0] - rightX)
  return {
    rightPupil: firstIsRight ? first : second,
    leftPupil: firstIsRight ? second : first,
    noseBridge: at(MESH.noseBridge),
    rightSide: at(MESH.rightSide),
    leftSide: at(MESH.leftSide),
  }
}

/** Distance between two points in the picture's plane, in pixels. */
export function pixelDistance(a: MeshPoint, b: MeshPoint): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1])
}
