import { z } from '#shared/schema/zod.ts'
import type { FaceMarks, PictureFace } from './face-source.ts'

/**
 * The sample portraits shipped with the app (resources/faces/, see its SOURCES.md), served from
 * the app's own origin under ./faces/ beside index.html: listed by faces.json, each decoded only
 * when chosen.
 */

const point = z.tuple([z.number().finite(), z.number().finite()])
const fileName = z.string().regex(/^[\w-]+\.(jpe?g|png|webp)$/i, 'a file name of ./faces/ (no folders)')

const sampleFaceSchema = z.object({
  id: z.string().regex(/^[\w-]{1,32}$/, 'letters, digits, - or _'),
  file: fileName,
  label: z.string().min(1).max(200),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  marks: z.object({ rightPupil: point, leftPupil: point, noseBridge: point }),
})

export type SampleFace = z.infer<typeof sampleFaceSchema>

/** Where the samples are served: the app page's own folder, so the harness and the build agree. */
const facesFolder = () => new URL('./faces/', document.baseURI)

/** The address of a sample's picture, for an <img> (img-src 'self'). */
export const sampleFaceUrl = (face: SampleFace) => new URL(face.file, facesFolder()).href

/** The samples' list; a damaged list is an error naming the entry and field. */
export async function loadSampleFaces(): Promise<SampleFace[]> {
  const address = new URL('faces.json', facesFolder())
  const response = await fetch(address)
  if (!response.ok)
    throw new Error(`The sample faces' list (faces/faces.json) could not be read: HTTP ${response.status}`)
  const parsed = z.array(sampleFaceSchema).safeParse(await response.json())
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new Error(`faces/faces.json, entry ${issue.path.map(String).join('.')}: ${issue.message}`)
  }
  return parsed.data
}

/** Decodes a sample for the try-on, with its hand-made marks. */
export async function decodeSampleFace(face: SampleFace): Promise<PictureFace> {
  const response = await fetch(sampleFaceUrl(face))
  if (!response.ok) throw new Error(`The sample face ${face.file} could not be read: HTTP ${response.status}`)
  const bitmap = await createImageBitmap(await response.blob())
  const marks: FaceMarks = face.marks
  return { kind: 'picture', id: `sample:${face.id}`, name: face.label, bitmap, marks }
}
