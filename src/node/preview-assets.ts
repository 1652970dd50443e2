import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { PreviewAsset, PreviewAssetRequest } from '#shared/ipc.ts'
import { isSampleAddress, SAMPLE_ADDRESSES, sampleAt, type SampleName } from '#shared/sample-assets.ts'
import { FetchError, guardedFetch, ownBytes, type GuardedFetchOptions } from './net/guarded-fetch.ts'

/**
 * Loads what the previews show: bundled samples from `resources/`, or 3D models, environments and
 * pictures at the addresses drafts name, through the guarded fetcher (see net/guarded-fetch.ts).
 * A sample address (src/shared/sample-assets.ts, the template's) is answered with its bundled
 * sample, never fetched.
 */
export interface PreviewAssetLoader {
  load(request: PreviewAssetRequest): Promise<PreviewAsset>
}

export interface PreviewAssetLoaderOptions {
  /** The app's `resources` folder; the samples are in its `preview/` folder. */
  resourcesDir: string
  /** Larger downloads are cut off while they stream in. */
  maxBytes?: number
  /** For the whole download, redirects included. */
  timeoutMs?: number
  /** The "Allow local addresses" setting, read on every download. */
  allowLocalAddresses: () => boolean
  /** For tests that stand in for the internet on loopback. */
  network?: GuardedFetchOptions['network']
}

export const DEFAULT_MAX_PREVIEW_BYTES = 50 * 1024 * 1024
export const DEFAULT_PREVIEW_TIMEOUT_MS = 20_000
/** Enough for a CDN's http → https → signed-address hops; more looks like a loop. */
export const MAX_PREVIEW_REDIRECTS = 3

const SAMPLES: Readonly<Record<SampleName, { file: string; contentType: string }>> = {
  model: { file: 'sample-glasses.glb', contentType: 'model/gltf-binary' },
  environment: { file: 'studio.hdr', contentType: 'image/vnd.radiance' },
  picture: { file: 'sample-product.png', contentType: 'image/png' },
}

/**
 * What the previews take: glTF models and the files a .gltf names beside it (buffers, KTX2
 * textures), Radiance and OpenEXR environments, and pictures (a logo, a product photo).
 */
const TYPES_BY_EXTENSION: Record<string, string> = {
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
  '.bin': 'application/gltf-buffer',
  '.ktx2': 'image/ktx2',
  '.hdr': 'image/vnd.radiance',
  '.exr': 'image/x-exr',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
}
/** Served types taken as they are; anything else (a web page, JSON, a script) is refused. */
const PREVIEW_TYPES = new Set(Object.values(TYPES_BY_EXTENSION))

export function createPreviewAssetLoader({
  resourcesDir,
  maxBytes = DEFAULT_MAX_PREVIEW_BYTES,
  timeoutMs = DEFAULT_PREVIEW_TIMEOUT_MS,
  allowLocalAddresses,
  network,
}: PreviewAssetLoaderOptions): PreviewAssetLoader {
  const fetchOptions: GuardedFetchOptions = {
    allowLocalAddresses,
    maxBytes,
    timeoutMs,
    maxRedirects: MAX_PREVIEW_REDIRECTS,
    mediaTypes: PREVIEW_TYPES,
    typesByExtension: TYPES_BY_EXTENSION,
    accept: 'model/gltf-binary, image/*;q=0.9, */*;q=0.5',
    network,
  }
  return {
    load: (request) => {
      if (request.source === 'sample') return loadSample(resourcesDir, request.name)
      if (isSampleAddress(request.url)) return loadSampleAddress(resourcesDir, request.url)
      return guardedFetch(request.url, fetchOptions)
    },
  }
}

/** The bundled sample a sample address names; one naming none is refused without any download. */
export function loadSampleAddress(resourcesDir: string, address: string): Promise<PreviewAsset> {
  const name = sampleAt(address)
  if (name) return loadSample(resourcesDir, name)
  const known = Object.values(SAMPLE_ADDRESSES).join(', ')
  return Promise.reject(
    new FetchError(
      address,
      `it is a sample address, but no sample is called so (there are ${known})`,
      'refused',
    ),
  )
}

async function loadSample(resourcesDir: string, name: SampleName): Promise<PreviewAsset> {
  // An own-property lookup: the name comes from the renderer (checked by the contract, and again here).
  if (!Object.hasOwn(SAMPLES, name)) throw new Error(`There is no bundled preview sample called "${name}".`)
  const sample = SAMPLES[name]
  const path = join(resourcesDir, 'preview', sample.file)
  try {
    const bytes = await readFile(path)
    return {
      bytes: ownBytes(bytes),
      contentType: sample.contentType,
      name: sample.file,
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new Error(
      `The bundled preview sample ${sample.file} could not be read from ${path} (${code ?? 'unknown error'}).`,
      { cause: error },
    )
  }
}
