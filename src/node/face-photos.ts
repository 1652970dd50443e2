import { randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  FACE_PHOTO_TYPES,
  facePhotoProblem,
  MAX_FACE_PHOTO_BYTES,
  MAX_FACE_PHOTO_NAME,
  MAX_FACE_PHOTOS,
  sniffFacePhotoType,
  type FacePhoto,
  type FacePhotoFile,
  type FacePhotoType,
} from '#shared/try-on/face-photo.ts'
import { writeJsonAtomic } from './atomic-json.ts'
import { createKeyedQueue } from './keyed-queue.ts'

/**
 * The user's own face photos for the try-on, kept in `<data folder>/faces/` and nowhere else:
 * each as `<id>.<jpg|png|webp>` (the id a UUID of main's, the extension from its bytes) beside
 * `<id>.json` (its name as picked, its kind, size and when). The picture is written before its
 * record and the record removed first, so a photo is listed only while both are there.
 */
export interface FacePhotoStore {
  /** Keeps `bytes` as a new photo; refused, naming the file, if it is no picture, too big, or oddly named. */
  add(name: string, bytes: Uint8Array): Promise<FacePhoto>
  /** Every photo, the oldest first. */
  list(): Promise<FacePhoto[]>
  read(id: string): Promise<FacePhotoFile>
  remove(id: string): Promise<void>
}

const EXTENSIONS: Record<FacePhotoType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A record as read from disk: anything else (a hand-edited or half-written file) is skipped. */
function asPhoto(value: unknown, id: string): FacePhoto | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { name, type, bytes, addedAt } = value as Record<string, unknown>
  if (typeof name !== 'string' || name.length > MAX_FACE_PHOTO_NAME) return undefined
  if (!FACE_PHOTO_TYPES.includes(type as FacePhotoType)) return undefined
  if (typeof bytes !== 'number' || typeof addedAt !== 'number') return undefined
  return { id, name, type: type as FacePhotoType, bytes, addedAt }
}

export function createFacePhotoStore({
  dataDir,
  now = Date.now,
}: {
  dataDir: string
  now?: () => number
}): FacePhotoStore {
  const dir = join(dataDir, 'faces')
  // One change at a time, so the count limit holds when two adds race.
  const queue = createKeyedQueue()
  const recordFile = (id: string) => join(dir, `${id}.json`)
  const pictureFile = (photo: FacePhoto) => join(dir, `${photo.id}.${EXTENSIONS[photo.type]}`)

  /** The id as main gave it, or an error: an id never becomes a path otherwise. */
  function checkedId(id: string): string {
    if (!UUID.test(id)) throw new Error(`There is no face photo with the id "${id.slice(0, 64)}".`)
    return id
  }

  async function record(id: string): Promise<FacePhoto | undefined> {
    try {
      return asPhoto(JSON.parse(await readFile(recordFile(id), 'utf8')), id)
    } catch {
      return undefined
    }
  }

  async function list(): Promise<FacePhoto[]> {
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    const ids = names.flatMap((name) => {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : ''
      return UUID.test(id) ? [id] : []
    })
    const photos = await Promise.all(ids.map(record))
    return photos
      .filter((photo): photo is FacePhoto => photo !== undefined)
      .sort((a, b) => a.addedAt - b.addedAt || a.id.localeCompare(b.id))
  }

  return {
    add: (name, bytes) =>
      queue('faces', async () => {
        const problem = facePhotoProblem(name, bytes.byteLength, bytes.subarray(0, 16))
        if (problem) throw new Error(problem)
        if ((await list()).length >= MAX_FACE_PHOTOS)
          throw new Error(
            `"${name}" was not added: ${MAX_FACE_PHOTOS} photos are kept at most; delete one first.`,
          )
        // facePhotoProblem read the signature, so this is one of the three.
        const type = sniffFacePhotoType(bytes)!
        const photo: FacePhoto = { id: randomUUID(), name, type, bytes: bytes.byteLength, addedAt: now() }
        await mkdir(dir, { recursive: true, mode: 0o700 })
        await writeFile(pictureFile(photo), bytes, { mode: 0o600, flag: 'wx' })
        const { id: _id, ...kept } = photo
        await writeJsonAtomic(recordFile(photo.id), kept)
        return photo
      }),
    list,
    read: async (id) => {
      const photo = await record(checkedId(id))
      if (!photo) throw new Error(`There is no face photo with the id "${id}": it may have been deleted.`)
      const bytes = await readFile(pictureFile(photo))
      if (bytes.byteLength > MAX_FACE_PHOTO_BYTES || sniffFacePhotoType(bytes) !== photo.type)
        throw new Error(
          `The face photo "${photo.name}" was changed on disk and is no longer a ${photo.type} picture.`,
        )
      return { photo, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
    },
    remove: (id) =>
      queue('faces', async () => {
        await rm(recordFile(checkedId(id)), { force: true })
        // Every kind, so a picture left without its record (a crash while adding) goes too.
        for (const extension of Object.values(EXTENSIONS))
          await rm(join(dir, `${id}.${extension}`), { force: true })
      }),
  }
}
