import { findField } from '../schema/catalogue.ts'
import { missingMessage, missingTitle, skuCatalogue } from '../validation/validate.ts'
import { IDENTITY_FIELDS, REQUIRABLE_FIELDS, type GateField } from './send-gates.ts'

/**
 * A contract field a SKU leaves empty, in words that do not read as "cannot send". The contract
 * requires no field, so the validator warns of every one it lists that a SKU lacks ("Brand is
 * missing"); only the send gates (send-gates.ts) keep a SKU from being sent. So a field a gate
 * requires (the identity fields, the profile's) is said by the gate's hold, "held back from
 * sending: Category is empty; Sandbox requires it", and any other one is "not filled (optional)":
 * in the import's dry run, the SKU editor and the list alike.
 */

/** A field nobody filled in, where nothing says whether anything requires it (the list's badge: "3 not filled"). */
export const NOT_FILLED = 'not filled'

/** A field nobody filled in that no gate requires. */
export const NOT_FILLED_OPTIONAL = `${NOT_FILLED} (optional)`

/** What a SKU held back by a gate is said to be, before the gate's reason. */
export const HELD_BACK = 'held back from sending'

/** "Held back from sending: Category is empty; Sandbox requires it", for a hold's message. */
export function heldBackLine(reason: string): string {
  return `Held back from sending: ${reason}`
}

/** "Brand is not filled (optional)" for the validator's "Brand is missing"; any other message as it is. */
export function optionalWords(message: string): string {
  const title = missingTitle(message)
  return title === undefined ? message : `${title} is ${NOT_FILLED_OPTIONAL}`
}

/**
 * The fields that hold a SKU back when empty, for a profile that requires `required`: the
 * identity fields always, and those of `required` a gate knows.
 */
export function gatedFields(required: readonly string[]): GateField[] {
  return [...IDENTITY_FIELDS, ...REQUIRABLE_FIELDS.filter((field) => required.includes(field))]
}

/**
 * Whether the validator's warning at `path` is about a gated field, or a section holding one ("AR
 * effect is missing" when 3D effect assets are required): the gate's hold says it instead.
 */
export function isGatedPath(path: string, gated: readonly string[]): boolean {
  return gated.some((field) => field === path || field.startsWith(`${path}.`))
}

/**
 * The validator's warnings about the gated fields and the sections holding them ("Category is
 * missing", "AR effect is missing"), for problems placed in a sheet's cells, which keep their
 * message but not their path.
 */
export function gatedMessages(gated: readonly string[]): Set<string> {
  const messages = new Set<string>()
  for (const field of gated) {
    const steps = field.split('.')
    for (let depth = 1; depth <= steps.length; depth++) {
      messages.add(missingMessage(findField(skuCatalogue(), steps.slice(0, depth)).node.meta.title))
    }
  }
  return messages
}
