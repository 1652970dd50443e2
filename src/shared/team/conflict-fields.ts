import { diffJson } from '../json-diff.ts'
import { getAt, parsePath, setAt } from '../json-path.ts'

/** A version of a draft as a person compares it: its fields, or its deletion. */
export interface ComparedVersion {
  payload: Record<string, unknown>
  deleted: boolean
}

/** A field the versions disagree on: its dotted path and each version's value (undefined: absent). */
export interface ConflictField {
  path: string
  values: unknown[]
}

/**
 * The fields the versions of a draft in conflict disagree on, leaf by leaf, in the order the first
 * version has them: each with every version's value. A deleted version disagrees on nothing: it
 * is kept or not as a whole.
 */
export function conflictFields(versions: readonly ComparedVersion[]): ConflictField[] {
  const kept = versions.filter((version) => !version.deleted)
  const [first, ...others] = kept
  if (!first) return []
  const paths = new Set(
    others.flatMap((other) => diffJson(first.payload, other.payload).map((change) => change.path)),
  )
  return [...paths].map((path) => ({
    path,
    values: versions.map((version) =>
      version.deleted ? undefined : getAt(version.payload, parsePath(path)),
    ),
  }))
}

/**
 * A merge of the versions' fields: the version `base` is (one not deleted), with each field in
 * `chosen` taken from the version at that position instead (a field absent there is removed).
 */
export function mergeFields(
  versions: readonly ComparedVersion[],
  base: number,
  chosen: ReadonlyMap<string, number>,
): Record<string, unknown> {
  const merged = structuredClone(versions[base]!.payload)
  for (const [path, from] of chosen) {
    if (from === base) continue
    const value = getAt(versions[from]!.payload, parsePath(path))
    setAt(merged, parsePath(path), value === undefined ? undefined : structuredClone(value))
  }
  return merged
}
