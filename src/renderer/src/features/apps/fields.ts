import type { FieldNode } from '#shared/schema/catalogue.ts'
import { findField } from '#shared/schema/catalogue.ts'
import { parsePath, type PathSegment } from '#shared/json-path.ts'
import { fieldName } from '#shared/validation/messages.ts'
import { appCatalogue } from '#shared/validation/validate.ts'

/**
 * The catalogue node of an app request field by its dotted path (`report_config.logo`), so the
 * editor's controls take their titles, help and suggestions from the one schema. An unknown path
 * is a programming error, caught the first time the group renders.
 */
export function appField(path: string): { node: FieldNode; segments: PathSegment[] } {
  const segments = parsePath(path)
  const { node, exact } = findField(appCatalogue(), segments)
  if (!exact) throw new Error(`The app request has no field ${path}`)
  return { node, segments }
}

/** The children of a section as dotted paths (every flag of `ui_config.advance`, say). */
export function childPaths(path: string): string[] {
  return appField(path).node.children.map((child) => `${path}.${child.key}`)
}

/** A field as the editor and its errors name it ("Name", "Logo"); "The app" for the request itself. */
export function appFieldTitle(path: string): string {
  return path === '' ? 'The app' : fieldName(appCatalogue(), parsePath(path))
}
