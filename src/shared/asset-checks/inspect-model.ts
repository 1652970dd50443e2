import { validateBytes, version } from 'gltf-validator'
import { formatBytes } from '../byte-size.ts'
import { messageOf } from '../error-message.ts'
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../json-depth.ts'
import { resolveReference } from './address.ts'
import { imageBytes, readContainer, type GltfContainer } from './gltf-container.ts'
import {
  extensionProblems,
  isValidatorReport,
  modelFacts,
  validatorProblems,
  type ValidatorMessage,
} from './gltf-report.ts'
import { PICTURE_TYPES, sniff } from './picture-sniff.ts'
import type { AssetOutcome, AssetProblem, ModelFacts, TextureFacts } from './results.ts'

/**
 * A downloaded 3D model read by the Khronos glTF-Validator (it validates Draco and textured GLBs
 * and flags a truncated one), with the external buffers and images of a .gltf fetched through the
 * caller's loader: what the model is (its facts) and what is wrong with it (its own problems;
 * budgets are judged later, in judge.ts). Runs anywhere: the fetching is the caller's.
 */
export interface ModelInspectionOptions {
  /** The model's address: the base its relative URIs resolve against. */
  url: string
  /**
   * Fetches an external file (already resolved to an absolute address) of at most `maxBytes`, or
   * rejects with an error whose message says why. The caller's fetcher refuses what it must
   * (anything but http(s), local addresses unless allowed).
   */
  loadExternal(url: string, maxBytes: number): Promise<Uint8Array>
  /** The model and its external files together, at most. */
  maxBytes: number
  /** External files a model may name, at most (hostile data may name thousands). */
  maxExternalFiles: number
}

/** The glTF-Validator's version: a finding kept from another version is not reused. */
export function validatorVersion(): string {
  return version()
}

/** Issues the validator reports at most a model: enough to list, bounded for a hostile file. */
const MAX_VALIDATOR_ISSUES = 200

export async function inspectModel(
  url: string,
  bytes: Uint8Array,
  options: ModelInspectionOptions,
): Promise<AssetOutcome> {
  const outcome = (problems: AssetProblem[]): AssetOutcome => ({ url, class: 'model', problems })
  const what = sniff(bytes)
  if (what && what.type !== 'model/gltf-binary' && what.type !== 'model/gltf+json') {
    return outcome([
      {
        severity: 'error',
        code: notAModelCode(what.type),
        message: `It is ${what.words}, not a glTF model.`,
      },
    ])
  }

  // The validator walks the JSON by recursion, and thousands of levels overflow its stack outside
  // its promise: the CLI would die with no report, main's thread would stop for every model it was
  // reading. So the JSON is parsed here first (V8's parser does not recurse) and its depth checked.
  const container = readContainer(bytes)
  if (container && nestsDeeperThan(container.json)) {
    return outcome([
      {
        severity: 'error',
        code: 'too-deep',
        message: `Its JSON nests objects or lists more than ${MAX_JSON_DEPTH} levels deep, which no glTF model needs; the glTF-Validator does not read it.`,
      },
    ])
  }

  const externals = new Map<string, Uint8Array>()
  const externalProblems: AssetProblem[] = []
  let total = bytes.length
  let asked = 0
  const loadExternal = async (uri: string): Promise<Uint8Array> => {
    // The validator's promise rejects with the reason; it then reports the resource as missing.
    asked++
    const address = resolveReference(options.url, uri)
    const fail = (reason: string): never => {
      externalProblems.push({
        severity: 'error',
        code: 'external-file',
        message: `The external file ${uri} could not be loaded: ${reason}`,
      })
      throw new Error(reason)
    }
    if (asked > options.maxExternalFiles)
      fail(`a model may name at most ${options.maxExternalFiles} external files.`)
    if (!address) fail('it is not an address.')
    const remaining = options.maxBytes - total
    if (remaining <= 0) fail(`the model and its files are over ${formatBytes(options.maxBytes)} already.`)
    let loaded: Uint8Array
    try {
      loaded = await options.loadExternal(address!, remaining)
    } catch (error) {
      return fail(messageOf(error))
    }
    total += loaded.length
    externals.set(uri, loaded)
    return loaded
  }

  let report: unknown
  try {
    report = await validateBytes(bytes, {
      uri: fileName(url),
      maxIssues: MAX_VALIDATOR_ISSUES,
      writeTimestamp: false,
      externalResourceFunction: loadExternal,
    })
  } catch (error) {
    // The validator rejects what is neither glTF JSON nor GLB, with a string.
    const reason = messageOf(error).replace(/\.$/, '')
    return outcome([
      {
        severity: 'error',
        code: 'not-gltf',
        message: `It is not a glTF model: the glTF-Validator could not read it (${reason}).`,
      },
    ])
  }
  if (!isValidatorReport(report)) {
    return outcome([
      { severity: 'error', code: 'not-gltf', message: 'The glTF-Validator gave no report for it.' },
    ])
  }

  const format = report.mimeType === 'model/gltf+json' ? 'gltf' : 'glb'
  const facts = modelFacts(report, {
    format,
    bytes: total,
    externalFiles: externals.size,
    textures: textures(container, report.info?.resources ?? [], (uri) => externals.get(uri)),
  })
  return {
    url,
    class: 'model',
    facts,
    problems: [
      ...externalProblems,
      ...validatorProblems(report, explainedBy(facts, externalProblems.length > 0)),
      ...extensionProblems(facts),
    ],
  }
}

/** Texture formats the preview decodes (gltf-extensions.ts) that this glTF-Validator does not know. */
const DECODED_IMAGES: Readonly<Record<string, string>> = {
  'image/ktx2': 'KHR_texture_basisu',
  'image/avif': 'EXT_texture_avif',
}

/**
 * The validator's messages that the checks' own findings already say, better: a failed external
 * file (said by `external-file`, with the fetcher's reason; the validator's IO_ERROR only says it
 * is missing), and a KTX2 or AVIF texture of a model using the extension for it: the validator
 * knows neither format, so it calls the MIME type invalid and the image unrecognised, where its
 * bytes were read here (type and size) and the preview decodes them.
 */
function explainedBy(facts: ModelFacts, externalFailed: boolean): (message: ValidatorMessage) => boolean {
  const decoded = new Set(
    facts.textures
      .filter((texture) => {
        const extension = texture.type ? DECODED_IMAGES[texture.type] : undefined
        return (
          extension !== undefined && facts.extensionsUsed.includes(extension) && texture.width !== undefined
        )
      })
      .map((texture) => texture.pointer),
  )
  return (message) => {
    if (message.code === 'IO_ERROR') return externalFailed
    const pointer = message.pointer ?? ''
    if (message.code === 'VALUE_NOT_IN_LIST') return decoded.has(pointer.replace(/\/mimeType$/, ''))
    if (message.code === 'IMAGE_UNRECOGNIZED_FORMAT') return decoded.has(pointer)
    return false
  }
}

function notAModelCode(type: string): string {
  if (type === 'text/html') return 'web-page'
  return Object.hasOwn(PICTURE_TYPES, type) ? 'picture-not-model' : 'not-gltf'
}

/**
 * Each image's type and size: read from its own bytes where they can be found, else as the
 * validator reports it (it knows PNG, JPEG and WebP, not KTX2).
 */
function textures(
  container: GltfContainer | undefined,
  resources: readonly { pointer: string; mimeType?: string; image?: { width: number; height: number } }[],
  external: (uri: string) => Uint8Array | undefined,
): TextureFacts[] {
  const images = container ? imageBytes(container, external) : []
  const reported = new Map(
    resources.filter((resource) => resource.pointer.startsWith('/images/')).map((r) => [r.pointer, r]),
  )
  const listed = [...reported.keys()]
    .map((pointer) => Number(pointer.split('/')[2]) + 1)
    .filter(Number.isSafeInteger)
  const count = Math.max(images.length, ...listed)
  const found: TextureFacts[] = []
  for (let i = 0; i < count; i++) {
    const pointer = `/images/${i}`
    const own = images[i] ? sniff(images[i]!) : undefined
    const theirs = reported.get(pointer)
    const texture: TextureFacts = { pointer }
    const type = own?.type ?? theirs?.mimeType
    if (type) texture.type = type
    const width = own?.width ?? theirs?.image?.width
    const height = own?.height ?? theirs?.image?.height
    if (width && height) Object.assign(texture, { width, height })
    found.push(texture)
  }
  return found
}

function fileName(url: string): string {
  const path = URL.parse(url)?.pathname ?? url
  return path.split('/').filter(Boolean).at(-1) ?? url
}
