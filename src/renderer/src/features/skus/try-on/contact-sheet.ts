import type { PreviewAssetRequest } from '#shared/ipc.ts'
import type { Sku } from '#shared/schema/sku.ts'
import type { FaceLandmarks } from '#shared/try-on/face-landmarks.ts'
import { failureText, loadPreviewAsset } from '#renderer/adapters/preview-assets.ts'
import type { StillPreviewClient } from '../preview/preview-client.ts'
import {
  environmentOf,
  intensityOf,
  isWebAddress,
  modelSource,
  toneMappingOf,
  transformOf,
} from '../preview/preview-settings.ts'
import { categoryOf, isEyewear } from './eyewear.ts'

/**
 * The try-on's contact sheet (issue #39): SKUs by sample faces, each tile the SKU's model on that
 * face as the try-on view places it. One preview worker draws every tile, a still after another,
 * in its try-on mode (the same `fit.ts`, the same scene): each SKU's model and settings are sent
 * once, then the faces one after the other, each answered by a still that is laid over the face's
 * picture here. The faces are found once for the whole sheet, by the caller.
 */

/** A row: a draft, by the name the list shows. */
export interface SheetSku {
  id: string
  name: string
  payload: Sku
}

/** A column: a sample face, its picture decoded and its face found once (undefined: none found). */
export interface SheetFace {
  id: string
  label: string
  picture: ImageBitmap
  landmarks: FaceLandmarks | undefined
}

/** A tile drawn (the face with the model on it), or why there is none, in words. */
export type TileOutcome = { kind: 'drawn'; picture: ImageBitmap } | { kind: 'message'; text: string }

/** The tiles' width in pixels; each is as tall as its face's picture at that width. */
export const TILE_WIDTH = 240

/** A sheet shows at most this many SKUs: past that the tiles are too many to look at, and to draw. */
export const MAX_SHEET_SKUS = 50

const SAMPLE_ENVIRONMENT: PreviewAssetRequest = { source: 'sample', name: 'environment' }

export const tileKey = (skuId: string, faceId: string) => `${skuId}/${faceId}`

export const tileHeight = (face: Pick<SheetFace, 'picture'>) =>
  Math.round((TILE_WIDTH * face.picture.height) / face.picture.width)

/** Why a SKU gets no model on the faces, in words; undefined when it has one to load. */
function noModel(payload: Sku): string | undefined {
  if (!isEyewear(payload)) return `Eyewear only: this SKU’s category is “${categoryOf(payload)}”.`
  const { url } = modelSource(payload)
  if (!url) return 'No 3D model: this SKU has no 3D asset.'
  if (!isWebAddress(url)) return 'No 3D model: its 3D asset address is not a web address (http or https).'
  return undefined
}

export interface DrawSheetOptions {
  skus: readonly SheetSku[]
  faces: readonly SheetFace[]
  preview: StillPreviewClient
  /** Each tile as it is done, in the order drawn (row after row). */
  onTile(skuId: string, faceId: string, outcome: TileOutcome): void
  /** Cancel: no tile is started after it is aborted. */
  signal?: AbortSignal
}

/** Draws every tile, row after row; resolves when all are done or the signal stopped it. */
export async function drawSheet({ skus, faces, preview, onTile, signal }: DrawSheetOptions): Promise<void> {
  /** The environment the worker is lit by: the SKU's image address, or '' for the default studio. */
  let litBy: string | undefined
  const every = (sku: SheetSku, text: string) => {
    for (const face of faces) onTile(sku.id, face.id, { kind: 'message', text })
  }

  async function light(payload: Sku) {
    const wanted = environmentOf(payload)
    const url = wanted.source === 'image' && isWebAddress(wanted.url) ? wanted.url : ''
    if (url === litBy) return
    if (url) {
      try {
        await preview.showEnvironment((await loadPreviewAsset({ source: 'url', url })).bytes)
        litBy = url
        return
      } catch {
        // Lit by the default studio instead, as the try-on view does.
      }
    }
    if (litBy === '') return
    await preview.showEnvironment((await loadPreviewAsset(SAMPLE_ENVIRONMENT)).bytes)
    litBy = ''
  }

  for (const sku of skus) {
    if (signal?.aborted) return
    const none = noModel(sku.payload)
    if (none) {
      every(sku, none)
      continue
    }
    const url = modelSource(sku.payload).url!
    try {
      const asset = await loadPreviewAsset({ source: 'url', url })
      if (signal?.aborted) return
      await preview.showModel(asset.bytes, url)
    } catch (error) {
      every(sku, `The 3D model could not be shown: ${failureText(error)}`)
      continue
    }
    try {
      await light(sku.payload)
    } catch {
      // Unlit (the default studio could not be read): the tiles still show where the frame sits.
    }
    const { position, rotation } = transformOf(sku.payload)
    preview.setTransform(position, rotation)
    preview.setToneMapping(toneMappingOf(sku.payload).mapping)
    preview.setIntensity(intensityOf(sku.payload).value)
    preview.setModelVisible(true)
    for (const face of faces) {
      if (signal?.aborted) return
      if (!face.landmarks) {
        onTile(sku.id, face.id, { kind: 'message', text: 'No face was found on this picture.' })
        continue
      }
      preview.showFace(face.landmarks)
      const height = tileHeight(face)
      const still = await preview.still(TILE_WIDTH, height)
      onTile(sku.id, face.id, { kind: 'drawn', picture: overPicture(face.picture, still, height) })
    }
  }
}

/** The model's still laid over the face's picture, as the try-on view shows them; closes the still. */
function overPicture(picture: ImageBitmap, still: ImageBitmap, height: number): ImageBitmap {
  const canvas = new OffscreenCanvas(TILE_WIDTH, height)
  const context = canvas.getContext('2d')!
  context.drawImage(picture, 0, 0, TILE_WIDTH, height)
  context.drawImage(still, 0, 0, TILE_WIDTH, height)
  still.close()
  return canvas.transferToImageBitmap()
}
