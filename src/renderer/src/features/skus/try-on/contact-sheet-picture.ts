import {
  TILE_WIDTH,
  tileHeight,
  tileKey,
  type SheetFace,
  type SheetSku,
  type TileOutcome,
} from './contact-sheet.ts'

/**
 * "Save as picture": the whole contact sheet as one PNG, the faces' labels across the top and the
 * SKUs' names down the side drawn in, so the picture says what it shows wherever it is sent.
 */

const NAMES_WIDTH = 220
const HEADER_HEIGHT = 44
const GAP = 8
const MARGIN = 16
const FONT = '14px system-ui, sans-serif'
const SMALL_FONT = '13px system-ui, sans-serif'
const TEXT = '#1f2933'
const MUTED = '#52606d'

/** Writes `text` in lines no wider than `width`, from (x, y) down; at most `lines` lines. */
function wrapped(
  context: OffscreenCanvasRenderingContext2D,
  text: string,
  x: number,
  y: number,
  width: number,
  lines: number,
) {
  const words = text.split(/\s+/)
  let line = ''
  let row = 0
  const lineHeight = 18
  for (const word of words) {
    const next = line ? `${line} ${word}` : word
    if (context.measureText(next).width > width && line) {
      context.fillText(row === lines - 1 ? `${line}…` : line, x, y + row * lineHeight)
      row += 1
      if (row === lines) return
      line = word
    } else line = next
  }
  if (line) context.fillText(line, x, y + row * lineHeight)
}

/** The sheet as a PNG: every tile drawn so far, a waiting tile left blank. */
export async function contactSheetPicture(
  skus: readonly SheetSku[],
  faces: readonly SheetFace[],
  tiles: ReadonlyMap<string, TileOutcome>,
): Promise<Blob> {
  const rowHeight = Math.max(...faces.map(tileHeight), 60)
  const width = MARGIN * 2 + NAMES_WIDTH + faces.length * (TILE_WIDTH + GAP)
  const height = MARGIN * 2 + HEADER_HEIGHT + skus.length * (rowHeight + GAP)
  const canvas = new OffscreenCanvas(width, height)
  const context = canvas.getContext('2d')!
  context.fillStyle = '#ffffff'
  context.fillRect(0, 0, width, height)
  context.textBaseline = 'top'

  const column = (index: number) => MARGIN + NAMES_WIDTH + index * (TILE_WIDTH + GAP)
  context.font = FONT
  context.fillStyle = TEXT
  faces.forEach((face, index) => wrapped(context, face.label, column(index), MARGIN, TILE_WIDTH, 2))

  skus.forEach((sku, row) => {
    const top = MARGIN + HEADER_HEIGHT + row * (rowHeight + GAP)
    context.font = FONT
    context.fillStyle = TEXT
    wrapped(context, sku.name, MARGIN, top, NAMES_WIDTH - GAP * 2, 4)
    faces.forEach((face, index) => {
      const left = column(index)
      const tile = tiles.get(tileKey(sku.id, face.id))
      if (tile?.kind === 'drawn') return context.drawImage(tile.picture, left, top)
      context.fillStyle = '#eef1f4'
      context.fillRect(left, top, TILE_WIDTH, tileHeight(face))
      if (tile?.kind !== 'message') return
      context.font = SMALL_FONT
      context.fillStyle = MUTED
      wrapped(context, tile.text, left + 10, top + 10, TILE_WIDTH - 20, 6)
    })
  })
  return canvas.convertToBlob({ type: 'image/png' })
}
