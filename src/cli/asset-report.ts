import { formatBytes } from '#shared/byte-size.ts'
import { typeWords } from '#shared/asset-checks/picture-sniff.ts'
import type { AssetCheck, AssetFacts, AssetStatus, SkuAssetResult } from '#shared/asset-checks/results.ts'
import { counted } from '#shared/counted.ts'
import { sayPlace } from '#shared/sheet/places.ts'

/**
 * The report of `check-assets`: one entry per SKU and asset, in file order, each naming the SKU
 * (its place in the file and its barcode, else its product name), the field and the address,
 * then what was found (ok, with the facts) or each problem, errors first.
 */

/** Thousands with a comma, as people read them (one formatter: making one a call is slow). */
const THOUSANDS = new Intl.NumberFormat('en-US')
const count = (n: number) => THOUSANDS.format(n)

/**
 * Where a person finds the SKU, as validate says it: "line N" of a spreadsheet (a pair's "FILE
 * line N"), "item N" of a feed or a JSON product list, "[N]" of a JSON list of SKUs.
 */
export function placeOf(result: Pick<SkuAssetResult, 'index' | 'row' | 'line' | 'file'>): string {
  if (result.row === undefined) return `[${result.index}]`
  if (result.line === undefined) return `item ${count(result.row)}`
  return sayPlace({ noun: 'line', n: result.line, ...(result.file !== undefined && { file: result.file }) })
}

/** Each file's line, made once however many SKUs name the file. */
const lines = new WeakMap<AssetFacts, string>()

/** What was found, in a line: "GLB, 18.4 KB, 5,648 triangles, 1 draw call, 1 texture (2048×2048)". */
export function factsLine(facts: AssetFacts): string {
  let line = lines.get(facts)
  if (line === undefined) {
    line = describe(facts)
    lines.set(facts, line)
  }
  return line
}

function describe(facts: AssetFacts): string {
  if (facts.class === 'picture') {
    const what = facts.type ? typeWords(facts.type).replace(/^an? /, '') : 'unknown picture'
    const size = facts.width && facts.height ? `, ${facts.width}×${facts.height}` : ''
    return `${what}${size}, ${formatBytes(facts.bytes)}`
  }
  const parts = [
    facts.format === 'glb'
      ? 'GLB'
      : `glTF${facts.externalFiles > 0 ? ` with ${counted(facts.externalFiles, 'external file')}` : ''}`,
    formatBytes(facts.bytes),
  ]
  if (facts.triangles !== undefined)
    parts.push(`${count(facts.triangles)} triangle${facts.triangles === 1 ? '' : 's'}`)
  if (facts.drawCalls !== undefined)
    parts.push(`${count(facts.drawCalls)} draw call${facts.drawCalls === 1 ? '' : 's'}`)
  if (facts.textures.length > 0) {
    const sizes = facts.textures.map((texture) =>
      texture.width && texture.height ? `${texture.width}×${texture.height}` : '?',
    )
    parts.push(`${counted(facts.textures.length, 'texture')} (${sizes.join(', ')})`)
  }
  if (facts.extensionsUsed.length > 0) parts.push(facts.extensionsUsed.join(', '))
  return parts.join(', ')
}

/**
 * The lines of one result: where (the SKU's place and label, the field, the address), then what
 * was found or each problem. `check` is the judgement of the asset for that field, which many
 * SKUs may share: its lines are made once.
 */
export function resultText(
  at: Pick<SkuAssetResult, 'index' | 'row' | 'line' | 'file' | 'sku'>,
  field: string,
  check: AssetCheck,
): string {
  return `${placeOf(at)} SKU ${at.sku}, ${field}: ${check.url}\n${findingsText(check)}`
}

/** Each judgement's lines under the result's first, made once however many SKUs share it. */
const findings = new WeakMap<AssetCheck, string>()

function findingsText(check: AssetCheck): string {
  let text = findings.get(check)
  if (text === undefined) {
    text = describeFindings(check)
    findings.set(check, text)
  }
  return text
}

function describeFindings({ problems, facts }: AssetCheck): string {
  if (problems.length === 0) return `  ok${facts ? `: ${factsLine(facts)}` : ''}\n`
  const lines = problems.map((problem) => `  ${problem.severity}: ${problem.message} [${problem.code}]\n`)
  if (facts) lines.push(`  (${factsLine(facts)})\n`)
  return lines.join('')
}

export interface AssetTally {
  skus: number
  /** SKUs that name at least one asset. */
  naming: number
  /** Assets named, one per SKU and field. */
  assets: number
  /** Distinct files checked (an address named as a model and as a picture counts twice). */
  files: number
  /** Of those, unchanged since the cache's finding (a 304). */
  unchanged: number
  ok: number
  warning: number
  error: number
}

export function emptyTally(): AssetTally {
  return { skus: 0, naming: 0, assets: 0, files: 0, unchanged: 0, ok: 0, warning: 0, error: 0 }
}

export function countResult(tally: AssetTally, status: AssetStatus): void {
  tally.assets++
  tally[status]++
}

export function summaryText(tally: AssetTally, cached: boolean): string {
  const silent = tally.skus - tally.naming
  return [
    `${counted(tally.skus, 'SKU')} read, ${counted(tally.assets, 'asset')} named (${counted(tally.files, 'distinct file')}`,
    cached ? `, ${count(tally.unchanged)} unchanged since the cache)` : ')',
    `: ${count(tally.ok)} ok, ${count(tally.warning)} with warnings, ${count(tally.error)} with errors`,
    silent > 0 ? `; ${counted(silent, 'SKU')} name no asset` : '',
    '\n',
  ].join('')
}
