import { faceAnchors, pixelDistance, type FaceLandmarks } from './face-landmarks.ts'

/**
 * Where a pair of glasses goes on a face in a picture (issue #39): the app's reading of the
 * platform's face anchor, not the platform's own. Pure numbers, so the preview's worker applies
 * them to its three.js objects and the unit tests check them without a GPU.
 *
 * The world is the one three.js draws in: metres; the camera at the origin looking down -Z, +X
 * to the picture's right, +Y up. A picture's pixels (x right, y down) are where that camera
 * projects: `x = width / 2 + X * f / -Z`, `y = height / 2 - Y * f / -Z`, with `f` its focal
 * length in pixels.
 *
 * The steps, each in one place below:
 * 1. Scale: the face's pupils are taken to be `AVERAGE_PUPIL_DISTANCE` (63 mm) apart, which puts
 *    the face at the depth where its pupils' distance in pixels is 63 mm wide for the camera. The
 *    model keeps its own size: its units are glTF's, metres (`MODEL`), so a frame ~0.14 m across
 *    is drawn as wide as 0.14 m is at that depth.
 * 2. Anchor: the face anchor sits on the nose bridge (mesh 168, between the eyes), at that depth,
 *    and turns with the head (`headQuaternion`).
 * 3. Offset: the draft's `arEffect.transform` moves and turns the model from that anchor, in the
 *    anchor's own axes, as the studio preview reads it: position in metres, rotation in degrees
 *    applied in X, Y, Z order (the contract gives no units).
 */

export type Vec3 = [x: number, y: number, z: number]
/** A rotation as three.js's Quaternion holds it: x, y, z, w. */
export type Quat = [x: number, y: number, z: number, w: number]

export interface Vector3Like {
  x: number
  y: number
  z: number
}

/** The draft's `arEffect.transform`, read as the studio preview reads it. */
export interface FrameOffset {
  /** Metres, in the face anchor's axes: +X the wearer's left (the picture's right), +Y up, +Z out of the face. */
  position: Vector3Like
  /** Degrees about the anchor's X, Y, Z, applied in that order. */
  rotation: Vector3Like
}

/** The model's box in its own units, as loaded (three.js's Box3 of the model). */
export interface ModelBounds {
  min: Vec3
  max: Vec3
}

export interface Pose {
  position: Vec3
  quaternion: Quat
  scale: number
}

export interface TryOnFit {
  /** A perspective camera at the origin looking down -Z, matched to the picture. */
  camera: { verticalFovDegrees: number; aspect: number; near: number; far: number }
  /** The face anchor: on the nose bridge, turned with the head. */
  anchor: Pose
  /** The model: the anchor moved and turned by the draft's offset. */
  model: Pose
  /** An ellipsoid standing in for the head, in the anchor's axes: writes depth only, so the temples go behind it. */
  occluder: { centre: Vec3; radii: Vec3 }
  /** Picture pixels per metre at the anchor's depth (the face's scale). */
  pixelsPerMetre: number
  /** How far the anchor is from the camera, in metres. */
  depth: number
  /** Focal length in picture pixels. */
  focal: number
  width: number
  height: number
}

/** Average adult interpupillary distance (ISO 8624's frame sizes are built around 62–64 mm). */
export const AVERAGE_PUPIL_DISTANCE = 0.063

/**
 * What the fit assumes of a model, in one place: glTF's units (metres, so `metresPerUnit` 1), its
 * origin where the frame's bridge rests on the nose, +Y up, and its front facing +Z (toward the
 * camera), the temples running back along -Z. The sample glasses are built so
 * (resources/preview/README.md); a model made otherwise sits where its origin and axes put it,
 * and the draft's transform is what corrects it, as on the platform.
 */
export const MODEL = { metresPerUnit: 1, plausibleWidth: { min: 0.08, max: 0.25 } } as const

/**
 * The camera's vertical field of view, assumed for every picture: a phone's or a laptop's front
 * camera at arm's length (about 40°). Photos carry no reliable lens data; the choice changes only
 * how strongly the temples converge, not where the front of the frame lands or how wide it is.
 */
export const PICTURE_VERTICAL_FOV_DEGREES = 40

/** Head proportions against its width at the cheekbones, for the occluder (adult averages). */
const HEAD = { heightPerWidth: 1.35, depthPerWidth: 1.4 }
/** How far behind the bridge point the occluder's front is: the frame's bridge rests in front of it. */
const OCCLUDER_SET_BACK = 0.005

const DEG = Math.PI / 180

function multiply(a: Quat, b: Quat): Quat {
  const [ax, ay, az, aw] = a
  const [bx, by, bz, bw] = b
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ]
}

const aboutX = (radians: number): Quat => [Math.sin(radians / 2), 0, 0, Math.cos(radians / 2)]
const aboutY = (radians: number): Quat => [0, Math.sin(radians / 2), 0, Math.cos(radians / 2)]
const aboutZ = (radians: number): Quat => [0, 0, Math.sin(radians / 2), Math.cos(radians / 2)]

/** Turns a vector by a unit quaternion. */
export function rotate([x, y, z]: Vec3, [qx, qy, qz, qw]: Quat): Vec3 {
  // t = 2 q × v; v' = v + w t + q × t
  const tx = 2 * (qy * z - qz * y)
  const ty = 2 * (qz * x - qx * z)
  const tz = 2 * (qx * y - qy * x)
  return [
    x + qw * tx + (qy * tz - qz * ty),
    y + qw * ty + (qz * tx - qx * tz),
    z + qw * tz + (qx * ty - qy * tx),
  ]
}

/** A rotation in degrees applied in X, Y, Z order: three.js's Euler order 'XYZ', as the studio applies it. */
export function eulerXYZ({ x, y, z }: Vector3Like): Quat {
  return multiply(multiply(aboutX(x * DEG), aboutY(y * DEG)), aboutZ(z * DEG))
}

/**
 * The head's turn in the camera's axes. The landmark model's angles are measured on the picture
 * (checked on a portrait turned 15° each way, @vladmandic/human's src/face/angles.ts): roll > 0
 * is a tilt clockwise as one looks at the picture, yaw > 0 a turn toward the picture's left (the
 * subject's right), pitch > 0 a nod down. In three.js's axes (Z toward the viewer) those are
 * -roll about Z, -yaw about Y and +pitch about X; the nod and the turn first, then the tilt in the
 * picture's plane.
 */
export function headQuaternion(rotation: FaceLandmarks['rotation']): Quat {
  return multiply(multiply(aboutZ(-rotation.roll), aboutY(-rotation.yaw)), aboutX(rotation.pitch))
}

/** Focal length in pixels of the assumed camera for a picture this tall. */
export const focalLength = (height: number) => height / 2 / Math.tan((PICTURE_VERTICAL_FOV_DEGREES * DEG) / 2)

/** The face's scale: picture pixels per metre where its pupils are, from their distance. */
export function pixelsPerMetre(face: FaceLandmarks): number {
  const { rightPupil, leftPupil } = faceAnchors(face)
  const pupils = pixelDistance(rightPupil, leftPupil)
  // A head turned away shows its pupils closer together than they are.
  return pupils / Math.max(Math.cos(face.rotation.yaw), 0.5) / AVERAGE_PUPIL_DISTANCE
}

/** Where a point of the world lands on the picture, in its pixels. */
export function project(
  fit: Pick<TryOnFit, 'focal' | 'width' | 'height'>,
  [x, y, z]: Vec3,
): [number, number] {
  const depth = -z
  return [fit.width / 2 + (x * fit.focal) / depth, fit.height / 2 - (y * fit.focal) / depth]
}

/** A point given in a pose's own axes, in the world. */
export function placeInPose(pose: Pose, point: Vec3): Vec3 {
  const [x, y, z] = rotate(point.map((value) => value * pose.scale) as Vec3, pose.quaternion)
  return [x + pose.position[0], y + pose.position[1], z + pose.position[2]]
}

/** Where the model goes on this face, offset by the draft's transform. */
export function fitFrame(face: FaceLandmarks, offset: FrameOffset, bounds?: ModelBounds): TryOnFit {
  const anchors = faceAnchors(face)
  const { width, height } = face
  const focal = focalLength(height)
  const perMetre = pixelsPerMetre(face)
  // At this depth one metre across is `perMetre` pixels: f / depth = perMetre.
  const depth = focal / perMetre
  const [u, v] = anchors.noseBridge
  const anchorPosition: Vec3 = [((u - width / 2) * depth) / focal, ((height / 2 - v) * depth) / focal, -depth]
  const anchorTurn = headQuaternion(face.rotation)

  const { x, y, z } = offset.position
  const moved = rotate([x, y, z], anchorTurn)
  const model: Pose = {
    position: [anchorPosition[0] + moved[0], anchorPosition[1] + moved[1], anchorPosition[2] + moved[2]],
    quaternion: multiply(anchorTurn, eulerXYZ(offset.rotation)),
    scale: MODEL.metresPerUnit,
  }

  // The head's width where the temples pass, seen square on (a turned head shows less of it).
  const headWidth =
    pixelDistance(anchors.rightSide, anchors.leftSide) / Math.max(Math.cos(face.rotation.yaw), 0.5) / perMetre
  const radii: Vec3 = [
    headWidth / 2,
    (headWidth / 2) * HEAD.heightPerWidth,
    (headWidth / 2) * HEAD.depthPerWidth,
  ]

  const reach = bounds ? Math.max(...bounds.max.map((value, i) => Math.abs(value - bounds.min[i]!))) : 0.3
  return {
    camera: {
      verticalFovDegrees: PICTURE_VERTICAL_FOV_DEGREES,
      aspect: width / height,
      near: Math.max(depth / 20, 0.001),
      far: depth + Math.max(reach, radii[2] * 2) * 4 + Math.hypot(x, y, z),
    },
    anchor: { position: anchorPosition, quaternion: anchorTurn, scale: 1 },
    model,
    // Its front just behind the bridge point, so the frame's front is never hidden.
    occluder: { centre: [0, 0, -(radii[2] + OCCLUDER_SET_BACK)], radii },
    pixelsPerMetre: perMetre,
    depth,
    focal,
    width,
    height,
  }
}

/**
 * A drag on the picture as a change of the draft's position: the pixels moved, turned back by the
 * head's tilt into the anchor's axes, in metres at the face's depth (y flips: the picture's y runs
 * down). Rounded to a tenth of a millimetre, so the fields show short numbers.
 */
export function dragOffset(face: FaceLandmarks, dx: number, dy: number): { x: number; y: number } {
  const perMetre = pixelsPerMetre(face)
  // The anchor's X axis is turned by -roll in the camera's axes (headQuaternion); undo it.
  const roll = face.rotation.roll
  const across = dx * Math.cos(roll) + dy * Math.sin(roll)
  const down = -dx * Math.sin(roll) + dy * Math.cos(roll)
  return { x: roundPosition(across / perMetre), y: roundPosition(-down / perMetre) }
}

/** Positions are kept to a tenth of a millimetre: finer than anyone fits a frame by eye. */
export const roundPosition = (metres: number) => Math.round(metres * 10_000) / 10_000

/** Says when a model's size does not read as a frame in metres (a model made in millimetres, say). */
export function sizeNote(bounds: ModelBounds): string | undefined {
  const across = (bounds.max[0] - bounds.min[0]) * MODEL.metresPerUnit
  const { min, max } = MODEL.plausibleWidth
  if (across >= min && across <= max) return undefined
  return `The model is ${Number(across.toPrecision(3))} units across; read as metres (glTF’s unit) that is not a frame’s size, so it is drawn ${across < min ? 'smaller' : 'larger'} than a face would wear it.`
}
