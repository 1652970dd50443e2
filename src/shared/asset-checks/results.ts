/**
 * What the asset checks find, in three layers that keep apart what depends on what:
 *
 * - `AssetOutcome`: what fetching and reading one address gave, once per address and run (and
 *   what a revalidated cache entry keeps): the facts read from the bytes and the problems that
 *   are the file's own (unreachable, not glTF, the validator's errors, a web page for a picture).
 *   It does not depend on the budgets, which a person may change between two runs.
 * - `AssetCheck`: an outcome judged against the budgets and the kind of field naming it (a
 *   Radiance HDR is fine as an environment, not as a product photo): what a person reads.
 * - `SkuAssetResult`: an asset check where a SKU names it (its field path), one per SKU and asset.
 */

export type Severity = 'error' | 'warning'

/** An asset's status: its worst problem's severity, or ok. */
export type AssetStatus = 'ok' | 'warning' | 'error'

export interface AssetProblem {
  severity: Severity
  /**
   * What kind of problem, stable for tools: the glTF-Validator's own codes
   * (GLB_UNEXPECTED_END_OF_CHUNK_DATA) as they are, ours in kebab case (unreachable, web-page,
   * over-budget-model-size, unshown-extension, …).
   */
  code: string
  message: string
}

/** Which kind of file a field names: a 3D model, or a picture of one of three kinds. */
export type AssetKind = 'model' | 'product-image' | 'environment-image' | '2d-asset'

/** Models and pictures are read differently, so one address is checked once as each it is named as. */
export type AssetClass = 'model' | 'picture'

export function assetClassOf(kind: AssetKind): AssetClass {
  return kind === 'model' ? 'model' : 'picture'
}

export interface TextureFacts {
  /** Where the model names it: a JSON pointer (`/images/0`). */
  pointer: string
  /** The media type of its bytes (`image/png`, `image/ktx2`), when known. */
  type?: string
  width?: number
  height?: number
}

export interface ModelFacts {
  class: 'model'
  /** Binary glTF or glTF JSON (with its external files). */
  format: 'glb' | 'gltf'
  /** The file and the external buffers and images it names, together. */
  bytes: number
  /** External files fetched beside the model (buffers and images of a .gltf). */
  externalFiles: number
  triangles?: number
  drawCalls?: number
  materials?: number
  textures: TextureFacts[]
  extensionsUsed: string[]
  extensionsRequired: string[]
  generator?: string
  /** How many of each the glTF-Validator reported (infos and hints are not problems here). */
  validator: { version: string; errors: number; warnings: number; infos: number; hints: number }
}

export interface PictureFacts {
  class: 'picture'
  bytes: number
  /** The media type read from the bytes (sniffed), or undefined when nothing known was recognised. */
  type?: string
  /** What the server said the file was (Content-Type, without parameters). */
  servedType: string
  width?: number
  height?: number
}

export type AssetFacts = ModelFacts | PictureFacts

export interface AssetOutcome {
  /** The address as named, the first time it was named in the run. */
  url: string
  class: AssetClass
  /** What could be read; absent when the file could not be fetched or read at all. */
  facts?: AssetFacts
  /** The file's own problems, before budgets and the naming field are considered. */
  problems: AssetProblem[]
}

export interface AssetCheck {
  url: string
  kind: AssetKind
  status: AssetStatus
  facts?: AssetFacts
  problems: AssetProblem[]
}

/** Where an asset is named: the SKU's place in the file, its label and the field. */
export interface SkuAssetResult extends AssetCheck {
  /** The item's position in the file, from 0 (the `[N]` of validate). */
  index: number
  /** For a sheet: the data row the SKU came from (the first row under the header is 1). */
  row?: number
  /** For a spreadsheet: the row's line, as the spreadsheet app numbers it (the header is line 1). */
  line?: number
  /** Of PrestaShop's two files, the one whose line it is. */
  file?: string
  /** The SKU as the other commands name it: its barcode, else its product name, else `#N`. */
  sku: string
  /** The field path (`arEffect.effectAssets3D.0.url`). */
  field: string
}

/** The worst severity of `problems`. */
export function statusOf(problems: readonly AssetProblem[]): AssetStatus {
  if (problems.some((problem) => problem.severity === 'error')) return 'error'
  return problems.length > 0 ? 'warning' : 'ok'
}
