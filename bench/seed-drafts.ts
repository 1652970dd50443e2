import type { Page } from '@playwright/test'
import type { Sku } from '#shared/schema/sku.ts'
import { newSkuPayload } from '#shared/schema/sku-template.ts'
import { draftTerms } from '#shared/search-terms.ts'
import { skuGaps } from '#shared/sync/send-gates.ts'
import { EMBEDDED_SANDBOX_DESTINATION } from '#shared/sync/destination.ts'
import { withStanding, type DraftSync } from '#shared/sync/standing.ts'
import { validityOf } from '#shared/validation/problem.ts'
import { validateSku } from '#shared/validation/validate.ts'

/**
 * Many SKU drafts, written straight into the page's real IndexedDB in the app's record shape:
 * the list's browser tests and its benchmark start from a catalogue without typing it in. The
 * derived columns come from the app's own code (`validateSku`, `draftTerms`), so the records are
 * what the repository would have written.
 */

/** Where seeded product photos point unless a seed names its own photo server: nobody answers it. */
export const IMAGE_HOST = 'images.catalog-desk.test'

const SHAPES = [
  'Aviator',
  'Round',
  'Wayfarer',
  'Cat Eye',
  'Oval',
  'Square',
  'Browline',
  'Pilot',
  'Shield',
  'Hexagon',
]
const FINISHES = ['Gold', 'Matte Black', 'Tortoise', 'Crystal', 'Silver', 'Rose', 'Navy', 'Olive', 'Amber']
export const BRANDS = [
  'Northwind Optics',
  'Contoso Vision',
  'Lumen Eyewear',
  'Fabrikam',
  'Adatum Frames',
  'Litware',
  'Proseware',
  'Tailspin Studio',
]
const CATEGORIES: Array<[string, string[]]> = [
  ['eyewear', ['sunglasses', 'eyeglasses']],
  ['eyewear', ['sunglasses', 'eyeglasses']],
  ['eyewear', ['eyeglasses', 'sunglasses']],
  ['jewellery', ['necklace', 'earrings']],
  ['accessories', ['watches', 'hats']],
]

/** The payloads drafts are made from: complete, missing a few fields, and one with an error. */
function templates(): Sku[] {
  const complete: Sku = {
    ...newSkuPayload(),
    isActive: true,
    actionUrl: 'https://shop.example.com/p/sku',
    arEffect: {
      ...newSkuPayload().arEffect,
      effectAssets3D: [{ id: 'frame', url: 'https://cdn.example.com/models/frame.glb' }],
    },
    meta: { frameShape: 'round', material: 'acetate', lensWidth: '52' },
  }
  const incomplete: Sku = { ...complete, arEffect: { ...complete.arEffect, effectAssets3D: [] } }
  delete incomplete.actionUrl
  const broken = { ...complete, isActive: 'yes' } as unknown as Sku
  return [complete, incomplete, broken]
}

/** One seeded draft as the tests refer to it. */
export interface SeededDraft {
  index: number
  id: string
  productName: string
  brand: string
  barcode: string
  category: string
  subCategory: string
  status: string
  updatedAt: number
  /** Where it stands with each destination: a sent draft is synced on one (`SeedOptions.sentTo`). */
  sync: DraftSync
  standing: string[]
}

interface Row extends SeededDraft {
  template: number
  /** Its own payload and checks, when it does not have its template's as they are (`models`). */
  own?: { payload: Sku; check: Check }
  productImage: string | undefined
  terms: string[]
  /** The gate fields it leaves empty (the app's `skuGaps`), computed here: the page gets plain data. */
  gaps?: string[]
}

export interface SeedOptions {
  /** The newest draft's last edit; each older one is 61 s before the one after it. */
  now?: number
  /** Indexes of drafts that have been sent (synced on `sentTo`, by a run not in the history). */
  sent?: readonly number[]
  /** Where the `sent` drafts were sent: the embedded sandbox unless given. */
  sentTo?: string
  /**
   * Where the product photos are: draft i's is `<photos>/sku/<i % 24>.svg`. A host nobody answers
   * unless given (`https://images.catalog-desk.test`); a test that shows photos serves them.
   */
  photos?: string
  /**
   * The 3D model of some drafts, by index: their one 3D asset ("frame") at that address, or none
   * for ''. The others keep their template's.
   */
  models?: Readonly<Record<number, string>>
}

/** Draft `i` of a seeded catalogue: draft 0 is the most recently edited. */
export function seededDraft(
  i: number,
  {
    now = Date.UTC(2026, 2, 2, 15, 0),
    sent = [],
    sentTo = EMBEDDED_SANDBOX_DESTINATION,
    photos = `https://${IMAGE_HOST}`,
  }: SeedOptions = {},
): Row {
  const [category, subs] = CATEGORIES[i % CATEGORIES.length]!
  const productName = `${SHAPES[i % SHAPES.length]} ${FINISHES[Math.floor(i / 3) % FINISHES.length]} ${String(i + 1).padStart(6, '0')}`
  const brand = BRANDS[Math.floor(i / 2) % BRANDS.length]!
  const barcode = String(8_901_000_000_000 + i)
  // Every tenth draft lacks fields, every tenth (another) has an error; 1 in 13 has no photo.
  const template = i % 10 === 3 ? 1 : i % 10 === 7 ? 2 : 0
  return {
    index: i,
    id: crypto.randomUUID(),
    productName,
    brand,
    barcode,
    category,
    subCategory: subs[Math.floor(i / 5) % subs.length]!,
    status: i % 6 === 0 ? 'PUBLISHED' : 'DRAFT',
    updatedAt: now - i * 61_000,
    ...withStanding(
      { sync: {}, payload: undefined },
      sentTo,
      sent.includes(i) ? { state: 'synced', run: 'seeded', position: i, at: now } : undefined,
    ),
    template,
    productImage: i % 13 === 5 ? undefined : `${photos}/sku/${i % 24}.svg`,
    terms: draftTerms(productName, brand, barcode),
  }
}

interface Check {
  validity: string
  errorCount: number
  warningCount: number
}

/** Validity of a payload as the app's validation judges it, the list's own columns filled in. */
function checkOf(payload: Sku): Check {
  const result = validateSku({
    ...payload,
    productName: 'x',
    brand: 'x',
    barcode: '1',
    category: 'x',
    subCategory: 'x',
    productImage: 'https://example.com/x.png',
  })
  return {
    validity: validityOf(result),
    errorCount: result.errors.length,
    warningCount: result.warnings.length,
  }
}

/** A payload whose one 3D asset is at `url`, or that has none for ''. */
function withModel(payload: Sku, url: string): Sku {
  const effectAssets3D = url ? [{ id: 'frame', url }] : []
  return { ...payload, arEffect: { ...payload.arEffect, effectAssets3D } }
}

const CHUNK = 20_000

/**
 * Writes `count` drafts into the page's `catalog-desk` database. The app must have opened the
 * database already (so it has the current schema): load the list first, seed, then reload.
 */
export async function seedDrafts(
  page: Page,
  count: number,
  options: SeedOptions = {},
): Promise<SeededDraft[]> {
  const payloads = templates()
  const checks = payloads.map(checkOf)
  const seeded: SeededDraft[] = []
  for (let start = 0; start < count; start += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, count - start) }, (_, k) => {
      const row = seededDraft(start + k, options)
      const { productName, brand, barcode, category, subCategory, status, productImage } = row
      const fields = { productName, brand, barcode, category, subCategory, status, productImage }
      const model = options.models?.[row.index]
      const payload =
        model === undefined ? payloads[row.template]! : withModel(payloads[row.template]!, model)
      const own = model === undefined ? undefined : { payload, check: checkOf(payload) }
      return { ...row, own, gaps: skuGaps({ ...payload, ...fields }) }
    })
    await page.evaluate(writeRows, { rows, payloads, checks })
    for (const { template: _t, own: _o, productImage: _p, terms: _terms, gaps: _gaps, ...draft } of rows)
      seeded.push(draft)
  }
  return seeded
}

/** Runs in the page: one transaction of raw puts. Self-contained (it is serialised). */
async function writeRows({ rows, payloads, checks }: { rows: Row[]; payloads: Sku[]; checks: Check[] }) {
  const idb = (globalThis as unknown as { indexedDB: IdbFactory }).indexedDB
  const db = await new Promise<IdbDatabase>((resolve, reject) => {
    const request = idb.open('catalog-desk')
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(new Error('cannot open catalog-desk'))
  })
  if (!db.objectStoreNames.contains('skuDrafts')) {
    db.close()
    throw new Error('The app has not created its database yet: open the SKU list before seeding.')
  }
  const tx = db.transaction('skuDrafts', 'readwrite')
  const store = tx.objectStore('skuDrafts')
  for (const row of rows) {
    const payload = structuredClone(row.own?.payload ?? payloads[row.template]!) as Record<string, unknown>
    Object.assign(payload, {
      productName: row.productName,
      brand: row.brand,
      barcode: row.barcode,
      category: row.category,
      subCategory: row.subCategory,
      status: row.status,
    })
    if (row.productImage) payload.productImage = row.productImage
    store.put({
      id: row.id,
      payload,
      createdAt: row.updatedAt - 3_600_000,
      updatedAt: row.updatedAt,
      ...(row.own?.check ?? checks[row.template]),
      sync: row.sync,
      standing: row.standing,
      productName: row.productName,
      brand: row.brand,
      barcode: row.barcode,
      category: row.category,
      subCategory: row.subCategory,
      status: row.status,
      terms: row.terms,
      gaps: row.gaps ?? [],
      // Never shared, so waiting to be shared should a team workspace be joined, as the app's own
      // writes mark it (src/renderer/src/db/team-waiting.ts).
      teamWaiting: 1,
    })
  }
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(new Error(String(tx.error)))
  })
  db.close()
}

// The test programme compiles without the DOM library: the little of IndexedDB used above, by hand.
interface IdbRequest<T> {
  result: T
  onsuccess: (() => void) | null
  onerror: (() => void) | null
}
interface IdbFactory {
  open(name: string): IdbRequest<IdbDatabase>
}
interface IdbDatabase {
  objectStoreNames: { contains(name: string): boolean }
  close(): void
  transaction(
    store: string,
    mode: 'readwrite',
  ): {
    objectStore(name: string): { put(value: unknown): void }
    oncomplete: (() => void) | null
    onerror: (() => void) | null
    error: unknown
  }
}
