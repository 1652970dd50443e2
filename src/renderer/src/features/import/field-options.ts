import { describeColumn, fieldSection, skuColumns } from '#shared/sheet/columns.ts'
import type { FieldPath } from '#shared/sheet/types.ts'

/** The fields a column can fill, grouped by the catalogue section they sit in, as the select shows them. */
export interface FieldOptionGroup {
  label: string
  options: { path: FieldPath; label: string }[]
}

/**
 * Every contract column in catalogue order, grouped by section; `extra` paths a file's columns
 * were matched to beyond those (a fifth 3D asset, a JSON column) go in a group of their own.
 */
export function fieldOptionGroups(extra: readonly (FieldPath | null)[] = []): FieldOptionGroup[] {
  const groups = new Map<string, FieldOptionGroup>()
  const columns = skuColumns()
  for (const path of columns) {
    const label = fieldSection(path)
    let group = groups.get(label)
    if (!group) groups.set(label, (group = { label, options: [] }))
    group.options.push({ path, label: describeColumn(path) })
  }
  const known = new Set(columns)
  const others = [...new Set(extra)].filter((path): path is FieldPath => path !== null && !known.has(path))
  if (others.length)
    groups.set('Other', {
      label: 'Other',
      options: others.map((path) => ({ path, label: describeColumn(path) })),
    })
  return [...groups.values()]
}
