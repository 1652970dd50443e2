import { parsePath } from '#shared/json-path.ts'
import { findField } from '#shared/schema/catalogue.ts'
import { describeDroppedField, droppedFields, type DroppedField } from '#shared/sync/dropped-fields.ts'
import { appCatalogue } from '#shared/validation/validate.ts'
import type { DestinationStanding } from '#shared/sync/standing.ts'

/** The id a destination gave the app once sync created it there (`app._id`), if it gave one. */
export function createdAppId(
  standing: Pick<DestinationStanding, 'remoteId'> | undefined,
): string | undefined {
  const id = standing?.remoteId
  return typeof id === 'string' && id !== '' ? id : undefined
}

/** One thing the service did not keep as it was sent, in the editor's words. */
export interface ServiceDifference extends DroppedField {
  /** The field's title in the editor ("Report titles"), or its path when the catalogue has none. */
  title: string
  /** What happened to it: "report_config.features: returned empty". */
  text: string
}

/** The field's title from the catalogue (the editor's label), for a dotted path of the request. */
function titleOf(path: string): string {
  if (!path) return 'The request'
  try {
    const { node, exact } = findField(appCatalogue(), parsePath(path))
    if (exact && node.meta.title) return node.meta.title
  } catch {
    // A path the catalogue cannot parse is shown as it is.
  }
  return path
}

/**
 * What the service dropped, emptied or changed of what was sent, comparing what was sent with the
 * `app` it returned; undefined when the answer was not kept (too large, or an app marked as created
 * by hand).
 */
export function serviceDifferences(sent: unknown, response: unknown): ServiceDifference[] | undefined {
  if (response === undefined) return undefined
  return droppedFields(sent, response).map((field) => ({
    ...field,
    title: titleOf(field.path),
    text: describeDroppedField(field),
  }))
}
