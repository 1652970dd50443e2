import { formatBytes } from '../byte-size.ts'

/**
 * The user's own face photos for the try-on (issue #39), as main keeps them in the app's data
 * folder and the page lists them. A photo's kind is read from its first bytes, never from its
 * name: the name is only shown.
 */

export const FACE_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
export type FacePhotoType = (typeof FACE_PHOTO_TYPES)[number]

/** A phone's full-size photo fits; a face needs far less. */
export const MAX_FACE_PHOTO_BYTES = 20 * 1024 * 1024
/** Enough for a person's tries; the folder never grows without end. */
export const MAX_FACE_PHOTOS = 50
/** A file name as the file picker gives it: its last part only. */
export const MAX_FACE_PHOTO_NAME = 255

export interface FacePhoto {
  /** Main's id (a UUID), the stored file's name: the photo's own name never becomes a path. */
  id: string
  /** The file's name as the user picked it, shown only. */
  name: string
  type: FacePhotoType
  bytes: number
  /** When it was added, milliseconds since 1970. */
  addedAt: number
}

/** A photo read back: what it is, and its bytes. */
export interface FacePhotoFile {
  photo: FacePhoto
  bytes: Uint8Array
}

/** A name as it may appear in a message: on one line, control characters shown as escapes, short. */
export function shownName(name: string): string {
  const escaped = name.replace(
    // eslint-disable-next-line no-control-regex -- the point is to find them
    /[\u0000-\u001f\u007f\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  return escaped.length > 80 ? `${escaped.slice(0, 79)}…` : escaped
}

/** Why `name` is not a file's own name (a folder in it, a control character), or undefined. */
export function faceNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'the file has no name'
  if (name.length > MAX_FACE_PHOTO_NAME) return `its name is longer than ${MAX_FACE_PHOTO_NAME} characters`
  if (/[/\\]/.test(name) || name === '.' || name === '..') return 'its name is a path, not a file name'
  // eslint-disable-next-line no-control-regex -- the point is to find them
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'its name holds control characters'
  return undefined
}

/** The picture's kind by its first bytes (its signature), or undefined for anything else. */
export function sniffFacePhotoType(bytes: Uint8Array): FacePhotoType | undefined {
  const starts = (signature: readonly number[], at = 0) =>
    bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte)
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  // RIFF, a 4-byte length, then WEBP.
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp'
  return undefined
}

/**
 * Why a file cannot be a face photo, naming it, or undefined when it may be added. The page asks
 * before sending it (a 300 MB file never crosses IPC); main asks again before keeping it.
 */
export function facePhotoProblem(name: string, size: number, head?: Uint8Array): string | undefined {
  const named = `"${shownName(name)}"`
  const nameProblem = faceNameProblem(name)
  if (nameProblem) return `${named} was not added: ${nameProblem}.`
  if (size > MAX_FACE_PHOTO_BYTES) {
    const limit = formatBytes(MAX_FACE_PHOTO_BYTES)
    // In bytes when rounding would make it read as the limit itself.
    const sized = formatBytes(size) === limit ? `${size} bytes` : formatBytes(size)
    return `${named} was not added: it is ${sized}, and a face photo may be at most ${limit}.`
  }
  if (size === 0) return `${named} was not added: the file is empty.`
  if (head && !sniffFacePhotoType(head))
    return `${named} was not added: it is not a JPEG, PNG or WebP picture (read by its first bytes, whatever its name says).`
  return undefined
}
