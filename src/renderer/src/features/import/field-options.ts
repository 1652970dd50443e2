import { findField } from '#shared/schema/catalogue.ts'
import { parsePath } from '#shared/json-path.ts'
import { describeColumn, skuColumns } from '#shared/sheet/columns.ts'
import type { FieldPath } from '#shared/sheet/types.ts'
import { skuCatalogue } from '#shared/validation/validate.ts'

/** The fields a column can fill, grouped by the catalogue section they sit in, as the select shows them. */
export interface FieldOptionGroup {
  label: string
  options: { path: FieldPath; label: string }[]
}

/** "AR effect › Environment" for `arEffect.envSettings.intensity`; "Product" at the top. */
function sectionOf(path: FieldPath): string {
  const segments = parsePath(path)
  const titles: string[] = []
  for (let i = 1; i < segments.length; i++) {
    if (typeof segments[i - 1] === 'number') continue
    const { node, exact } = findField(skuCatalogue, segments.slice(0, i))
    if (exact && (node.children.length > 0 || node.item)) titles.push(node.meta.title)
  }
  return titles.length ? titles.join(' › ') : 'Product'
}

/**
 * Every contract column in catalogue order, grouped by section; `extra` paths a file's columns
 * were matched to beyond those (a fifth 3D asset, a JSON column) go in a group of their own.
 */
export function fieldOptionGroups(extra: readonly (FieldPath | null)[] = []): FieldOptionGroup[] {
  const groups = new Map<string, FieldOptionGroup>()
  const columns = skuColumns()
  for (const path of columns) {
    const label = sectionOf(path)
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
