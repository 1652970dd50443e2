/**
 * Draws Catalog Desk's app icon, the one source image every installer's icons are made from:
 *
 *   node resources/icon/generate.ts
 *
 * writes resources/icon/icon.png, 1024 × 1024 pixels, which electron-builder turns into the macOS
 * .icns, the Windows .ico and the Linux set of sizes (electron-builder.config.ts names it). The
 * picture: a rounded square in a teal-to-blue gradient, with a pair of glasses above three catalog
 * rows in white. Drawn here from nothing but shapes (signed distances, so edges are anti-aliased);
 * the output is deterministic: the same script writes the same bytes.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PNG } from 'pngjs'

const SIZE = 1024
/** macOS draws app icons on an 824-pixel square inside the 1,024 canvas; the rest stays clear. */
const TILE = 824
const TILE_RADIUS = 185

type Vec = readonly [number, number]

const length = (x: number, y: number) => Math.hypot(x, y)

/** Distance to a box of half-size (bx, by) with rounded corners of radius r, centred at c. */
function roundedBox([px, py]: Vec, [cx, cy]: Vec, bx: number, by: number, r: number): number {
  const qx = Math.abs(px - cx) - bx + r
  const qy = Math.abs(py - cy) - by + r
  return length(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r
}

/** Distance to a ring of radius `radius` and stroke `width` centred at c. */
function ring([px, py]: Vec, [cx, cy]: Vec, radius: number, width: number): number {
  return Math.abs(length(px - cx, py - cy) - radius) - width / 2
}

/** The upper half of a ring: the glasses' bridge. */
function arch(p: Vec, c: Vec, radius: number, width: number): number {
  const below = p[1] - c[1]
  return Math.max(ring(p, c, radius, width), below)
}

/** How much of a pixel a shape covers, from its distance at the pixel's centre. */
const coverage = (distance: number) => Math.min(1, Math.max(0, 0.5 - distance))

const mix = (a: number, b: number, t: number) => a + (b - a) * t

const TOP: Vec = [0x14, 0xb8] // teal (red, green; blue below)
const TOP_BLUE = 0xa6
const BOTTOM: Vec = [0x1d, 0x4e]
const BOTTOM_BLUE = 0xd8

const centre = SIZE / 2
const lensRadius = 112
const stroke = 44
const lensY = 430
const leftLens: Vec = [centre - 150, lensY]
const rightLens: Vec = [centre + 150, lensY]
const bridge: Vec = [centre, lensY + 8]
const rows = [
  { y: 640, half: 230 },
  { y: 712, half: 230 },
  { y: 784, half: 150 },
]

function glyph(p: Vec): number {
  let d = Math.min(ring(p, leftLens, lensRadius, stroke), ring(p, rightLens, lensRadius, stroke))
  d = Math.min(d, arch(p, bridge, 40, stroke * 0.8))
  for (const row of rows) d = Math.min(d, roundedBox(p, [centre - 230 + row.half, row.y], row.half, 16, 16))
  return d
}

const png = new PNG({ width: SIZE, height: SIZE })
for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    const p: Vec = [x + 0.5, y + 0.5]
    const tile = coverage(roundedBox(p, [centre, centre], TILE / 2, TILE / 2, TILE_RADIUS))
    const t = Math.min(1, Math.max(0, (p[1] - (centre - TILE / 2)) / TILE))
    const white = coverage(glyph(p))
    const at = (y * SIZE + x) * 4
    png.data[at] = Math.round(mix(mix(TOP[0], BOTTOM[0], t), 255, white))
    png.data[at + 1] = Math.round(mix(mix(TOP[1], BOTTOM[1], t), 255, white))
    png.data[at + 2] = Math.round(mix(mix(TOP_BLUE, BOTTOM_BLUE, t), 255, white))
    png.data[at + 3] = Math.round(255 * tile)
  }
}

const here = dirname(fileURLToPath(import.meta.url))
writeFileSync(join(here, 'icon.png'), PNG.sync.write(png, { colorType: 6 }))
