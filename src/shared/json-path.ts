/**
 * Reading and writing inside a JSON document by path segments (`['arEffect', 'effectAssets3D', 0, 'url']`).
 * Writes copy nothing and touch nothing but the path, so fields the app does not know stay as they are.
 */
export type PathSegment = string | number

export function parsePath(dotted: string): PathSegment[] {
  if (dotted === '') return []
  return dotted.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment))
}

export function getAt(document: unknown, path: readonly PathSegment[]): unknown {
  let current = document
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<PathSegment, unknown>)[segment]
  }
  return current
}

/**
 * Sets `value` at `path`, creating missing objects (or arrays, before a numeric segment) on the way.
 * `undefined` removes the key, which is how a field becomes absent again.
 */
export function setAt(document: Record<string, unknown>, path: readonly PathSegment[], value: unknown): void {
  if (path.length === 0) throw new Error('setAt needs a path')
  let current: Record<PathSegment, unknown> = document
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i]!
    let next = current[segment]
    if (typeof next !== 'object' || next === null) {
      if (value === undefined) return
      next = typeof path[i + 1] === 'number' ? [] : {}
      current[segment] = next
    }
    current = next as Record<PathSegment, unknown>
  }
  const last = path[path.length - 1]!
  if (value === undefined) {
    if (Array.isArray(current) && typeof last === 'number') current.splice(last, 1)
    else delete current[last]
  } else {
    current[last] = value
  }
}
