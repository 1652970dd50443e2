import { unshownExtensions } from '../gltf-extensions.ts'
import { isRecord } from '../is-record.ts'
import type { AssetProblem, ModelFacts, TextureFacts } from './results.ts'

/**
 * The glTF-Validator's report (its validation.schema.json, and the counts its `info` carries
 * beyond it: draw calls, triangles, materials) read into the asset checks' terms: its errors and
 * warnings as problems with the validator's own codes, its figures as a model's facts.
 */

export interface ValidatorMessage {
  code: string
  /** 0 error, 1 warning, 2 information, 3 hint. */
  severity: number
  message: string
  /** A JSON pointer into the asset, or… */
  pointer?: string
  /** …a byte offset in a GLB. */
  offset?: number
}

export interface ValidatorResource {
  pointer: string
  storage?: 'data-uri' | 'buffer-view' | 'glb' | 'external'
  mimeType?: string
  byteLength?: number
  uri?: string
  image?: { width: number; height: number }
}

export interface ValidatorReport {
  validatorVersion: string
  mimeType?: string
  issues: {
    numErrors: number
    numWarnings: number
    numInfos: number
    numHints: number
    messages: ValidatorMessage[]
    truncated: boolean
  }
  info?: {
    version?: string
    generator?: string
    extensionsUsed?: string[]
    extensionsRequired?: string[]
    resources?: ValidatorResource[]
    drawCallCount?: number
    totalTriangleCount?: number
    materialCount?: number
  }
}

/** Whether the validator's answer has the shape its schema promises (it is a library's output, read once more before use). */
export function isValidatorReport(value: unknown): value is ValidatorReport {
  if (!isRecord(value) || typeof value.validatorVersion !== 'string' || !isRecord(value.issues)) return false
  const { issues } = value
  return (
    Array.isArray(issues.messages) &&
    typeof issues.numErrors === 'number' &&
    typeof issues.numWarnings === 'number'
  )
}

/** The validator's errors and warnings listed a model, at most; the counts say how many there were. */
export const LISTED_VALIDATOR_ISSUES = 20

const SEVERITY = ['error', 'warning'] as const

/**
 * The validator's errors and warnings as problems, in its order, each with its code and where in
 * the asset (a JSON pointer, or a byte of the GLB). Beyond `LISTED_VALIDATOR_ISSUES`, one more
 * problem says how many were left out. Information and hints (an unused object, an extension the
 * validator cannot check, such as Draco) are not problems, nor are the messages `explained`
 * already by the checks' own findings (see inspect-model.ts).
 */
export function validatorProblems(
  report: ValidatorReport,
  explained: (message: ValidatorMessage) => boolean = () => false,
): AssetProblem[] {
  const problems: AssetProblem[] = []
  let numErrors = report.issues.numErrors
  let numWarnings = report.issues.numWarnings
  for (const message of report.issues.messages) {
    const severity = SEVERITY[message.severity]
    if (!severity) continue
    if (explained(message)) {
      if (severity === 'error') numErrors--
      else numWarnings--
      continue
    }
    const at =
      message.pointer !== undefined && message.pointer !== ''
        ? ` (at ${message.pointer})`
        : message.offset !== undefined
          ? ` (at byte ${message.offset})`
          : ''
    problems.push({ severity, code: message.code, message: `${message.message}${at}` })
  }
  const listed = problems.slice(0, LISTED_VALIDATOR_ISSUES)
  const left = numErrors + numWarnings - listed.length
  if (left > 0) {
    listed.push({
      severity:
        numErrors > listed.filter((problem) => problem.severity === 'error').length ? 'error' : 'warning',
      code: 'more-validator-issues',
      message: `The glTF-Validator found ${numErrors} errors and ${numWarnings} warnings in all; ${left} more are not listed.`,
    })
  }
  return listed
}

/** What the model is, from the report and what was measured beside it. */
export function modelFacts(
  report: ValidatorReport,
  measured: { format: 'glb' | 'gltf'; bytes: number; externalFiles: number; textures: TextureFacts[] },
): ModelFacts {
  const info = report.info
  const { numErrors, numWarnings, numInfos, numHints } = report.issues
  const facts: ModelFacts = {
    class: 'model',
    format: measured.format,
    bytes: measured.bytes,
    externalFiles: measured.externalFiles,
    textures: measured.textures,
    extensionsUsed: info?.extensionsUsed ?? [],
    extensionsRequired: info?.extensionsRequired ?? [],
    validator: {
      version: report.validatorVersion,
      errors: numErrors,
      warnings: numWarnings,
      infos: numInfos,
      hints: numHints,
    },
  }
  if (typeof info?.totalTriangleCount === 'number') facts.triangles = info.totalTriangleCount
  if (typeof info?.drawCallCount === 'number') facts.drawCalls = info.drawCallCount
  if (typeof info?.materialCount === 'number') facts.materials = info.materialCount
  if (typeof info?.generator === 'string') facts.generator = info.generator
  return facts
}

/**
 * The extensions the app's preview cannot show (gltf-extensions.ts): required ones mean the model
 * does not load there at all, merely used ones that it looks different. Warnings either way: the
 * contract restricts no extension, and the try-on may well show what this preview cannot, so a
 * person is told, not stopped.
 */
export function extensionProblems(
  facts: Pick<ModelFacts, 'extensionsUsed' | 'extensionsRequired'>,
): AssetProblem[] {
  const required = new Set(facts.extensionsRequired)
  return unshownExtensions([...new Set([...facts.extensionsUsed, ...facts.extensionsRequired])]).map(
    (name) => {
      return required.has(name)
        ? {
            severity: 'warning',
            code: 'unshown-extension',
            message: `The model requires ${name}, which the preview cannot show: it would not load there.`,
          }
        : {
            severity: 'warning',
            code: 'unshown-extension',
            message: `The model uses ${name}, which the preview does not show: it would look different there.`,
          }
    },
  )
}
