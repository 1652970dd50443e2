import { isRecord } from '../is-record.ts'
import { counted } from '../counted.ts'
import { isSampleAddress, namesSampleAddress, sampleAt, type SampleName } from '../sample-assets.ts'
import { findField } from '../schema/catalogue.ts'
import { newSkuPayload } from '../schema/sku-template.ts'
import { skuCatalogue } from '../validation/validate.ts'
import { gtinFinding } from '../values/gtin.ts'
import { andList } from '../and-list.ts'

/**
 * The gates a SKU passes before it is sent: what the contract leaves open (it shows no required
 * field) decided here, visibly. A SKU that fails one is held back, named with its reason, in the
 * app's pre-flight and in `catalog-desk push` alike:
 * - an empty draft (nothing beyond what a new draft or an import's defaults fill in);
 * - no product name or no barcode: the platform shows a product by its name, and its barcode is
 *   the only key a person (or this app) has to tell whether it was created already;
 * - a field the profile requires (Settings), `category` by default;
 * - a barcode whose GTIN check digit is wrong (or with a letter where a digit belongs), only when
 *   the profile holds those back (off by default: validation warns of it either way);
 * - a sample address (src/shared/sample-assets.ts: the template's model, environment and picture),
 *   everywhere but the built-in Sandbox: it stands for the shop's own file, which the platform needs;
 * - a barcode that more than one SKU of the send carries, or that another draft already has
 *   (or may have) created at that destination: the bulk endpoint only creates, so either would
 *   be a second copy.
 * Pure: the database and the CLI give the drafts; these functions say which are held back.
 */

/** The fields every SKU needs to be sent: always required, whatever the profile says. */
export const IDENTITY_FIELDS = ['productName', 'barcode'] as const

/**
 * The fields a profile may require besides the identity fields, in the order Settings shows them.
 * Each is derived into the draft's `gaps` column when it is empty, so changing this list means
 * recomputing that column (a database upgrade).
 */
export const REQUIRABLE_FIELDS = [
  'category',
  'subCategory',
  'brand',
  'productImage',
  'actionUrl',
  'arEffect.effectAssets3D',
  'arEffect.envSettings.environmentImage',
] as const

export type IdentityField = (typeof IDENTITY_FIELDS)[number]
export type RequirableField = (typeof REQUIRABLE_FIELDS)[number]
export type GateField = IdentityField | RequirableField

/**
 * What a new profile requires besides the identity fields. The platform picks a SKU's try-on by
 * its category (its update refuses an `arEffect` that does not fit the category), so a SKU without
 * one cannot be tried on; the rest depends on the shop and is left to the person.
 */
export const DEFAULT_REQUIRED_FIELDS: readonly RequirableField[] = ['category']

/** The `gaps` entry of a draft that holds nothing a person filled in. */
export const EMPTY_GAP = 'empty'

/**
 * The `gaps` entry of a draft whose barcode reads as a GTIN with something wrong
 * (src/shared/values/gtin.ts): a wrong check digit, a letter where a digit belongs.
 */
export const CHECK_DIGIT_GAP = 'check-digit'

/**
 * The `gaps` entry of a draft that names a sample address (the template's): held back from every
 * destination but the Sandbox. No stored draft needed recomputing when it came: none could name
 * one before the template did.
 */
export const SAMPLE_GAP = 'sample'

/** What a profile holds back beyond the fields it requires. */
export interface HoldRules {
  /** Barcodes whose check digit is wrong (`Profile.holdBadCheckDigits`); off by default. */
  holdBadCheckDigits?: boolean
  /** The destination takes drafts naming sample addresses (`takesSamples` in destination.ts: the Sandbox). */
  takesSamples?: boolean
}

/** How a field is named in a reason: its catalogue title ("Product name", "3D effect assets"). */
export function gateFieldTitle(field: GateField): string {
  return findField(skuCatalogue(), field.split('.')).node.meta.title
}

function valueAt(payload: unknown, path: string): unknown {
  let current = payload
  for (const key of path.split('.')) {
    if (!isRecord(current)) return undefined
    current = current[key]
  }
  return current
}

/**
 * Whether a value says something: text with a character other than spaces, any number or true/false,
 * a list with an entry that says something, an object with a field that does.
 */
function filled(value: unknown): boolean {
  if (value === undefined || value === null) return false
  if (typeof value === 'string') return value.trim() !== ''
  if (Array.isArray(value)) return value.some(filled)
  if (isRecord(value)) return Object.values(value).some(filled)
  return true
}

/** The template a new draft starts from: values equal to it were not typed by anyone. */
const TEMPLATE = newSkuPayload()

/**
 * Whether `value` (at `path` of a SKU) holds something a person put there: neither blank nor the
 * value a new draft (or an import's defaults, which are the same template) starts with.
 */
function typed(value: unknown, template: unknown): boolean {
  if (!filled(value)) return false
  if (isRecord(value)) {
    const base = isRecord(template) ? template : {}
    return Object.entries(value).some(([key, child]) => typed(child, base[key]))
  }
  if (Array.isArray(value)) {
    const base = Array.isArray(template) ? template : []
    return value.some((entry, i) => typed(entry, base[i]))
  }
  return value !== template
}

/** Whether a SKU holds nothing beyond what a new draft starts with: an "Untitled SKU" nobody filled in. */
export function isEmptySku(payload: unknown): boolean {
  return !typed(payload, TEMPLATE)
}

/** What is wrong with the SKU's barcode read as a GTIN, if it is one (none for other text). */
function barcodeFinding(payload: unknown) {
  const barcode = valueAt(payload, 'barcode')
  return typeof barcode === 'string' ? gtinFinding(barcode) : undefined
}

/**
 * The gate fields a SKU leaves empty, `empty` when it holds nothing at all, and `check-digit`
 * when its barcode is a GTIN with something wrong: kept on each stored draft (a multi-entry
 * index), so the pre-flight finds the drafts a profile holds back without reading their payloads.
 * Defaults never fill an identity field: the template has none. A complete SKU with a right (or
 * no GTIN) barcode has no entry, which keeps imports of complete rows from paying for the index.
 */
export function skuGaps(payload: unknown): string[] {
  const gaps: string[] = [...IDENTITY_FIELDS, ...REQUIRABLE_FIELDS].filter(
    (field) => !filled(valueAt(payload, field)),
  )
  if (isEmptySku(payload)) gaps.unshift(EMPTY_GAP)
  if (barcodeFinding(payload)) gaps.push(CHECK_DIGIT_GAP)
  if (namesSampleAddress(payload)) gaps.push(SAMPLE_GAP)
  return gaps
}

/** Why a SKU is held back, from the most basic reason to the least. */
export const HOLD_REASONS = [
  'empty',
  'identity',
  'required',
  'check-digit',
  'sample',
  'duplicate',
  'repeat',
  'created',
] as const
export type HoldReason = (typeof HOLD_REASONS)[number]

/** One SKU held back and why, in words that name the fields or the other SKUs concerned. */
export interface Hold {
  reason: HoldReason
  message: string
  /** The fields it says are empty (a missing identity or required field): where a sheet shows it. */
  fields?: GateField[]
}

/**
 * How each reason is headed where SKUs held back are counted ("3 drafts missing a product name or
 * a barcode": either, as the rows' own reasons say), where the destination is said around it (the
 * CLI's summary names the address). The app names it in the heading itself: `holdHeading`.
 */
export const HOLD_HEADINGS: Readonly<Record<HoldReason, string>> = {
  empty: 'empty (nothing filled in)',
  identity: 'missing a product name or a barcode',
  required: 'missing a field this profile requires',
  'check-digit': 'whose barcode’s check digit is wrong',
  sample: 'using the sample model or pictures',
  duplicate: 'sharing a barcode with another SKU to be sent',
  repeat: 'repeating another row exactly (sent once, with it)',
  created: 'with a barcode already created there',
}

/**
 * A reason's heading naming the destination (`place`, as the profile is called: "Sandbox"): the
 * profile that requires the field, the place that has the barcode.
 */
export function holdHeading(reason: HoldReason, place: string): string {
  if (reason === 'required') return `missing a field ${place} requires`
  if (reason === 'created') return `with a barcode already created on ${place}`
  return HOLD_HEADINGS[reason]
}

/**
 * Why a SKU with these `gaps` is held back by a profile that requires `required` (the identity
 * fields always), or undefined when its own fields let it through. Only the first reason is given
 * (`holdsForGaps` gives them all): an empty draft is "empty", not also "no barcode". `requiredBy`
 * says who requires the fields, as the reason names it: the profile's name in the app ("Brand is
 * empty; Sandbox requires it"), "this push" in the CLI. A wrong check digit holds it back only
 * when `rules` say so; a sample address, unless they say the destination takes samples (the
 * Sandbox).
 */
export function holdForGaps(
  gaps: readonly string[],
  required: readonly string[],
  requiredBy: string,
  rules: HoldRules = {},
): Hold | undefined {
  return holdsForGaps(gaps, required, requiredBy, rules)[0]
}

/**
 * Every reason `holdForGaps` would give, in its order, for the editor to say at once what stands
 * between a draft and sending (a tryout filled in the barcode only to be told of the category).
 * An empty draft has that reason alone.
 */
export function holdsForGaps(
  gaps: readonly string[],
  required: readonly string[],
  requiredBy: string,
  rules: HoldRules = {},
): Hold[] {
  if (gaps.includes(EMPTY_GAP)) {
    return [{ reason: 'empty', message: 'Empty: nothing is filled in beyond what a new draft starts with' }]
  }
  const holds: Hold[] = []
  const missing = (fields: readonly GateField[]) => fields.filter((field) => gaps.includes(field))
  const identity = missing(IDENTITY_FIELDS)
  if (identity.length > 0)
    holds.push({
      reason: 'identity',
      message: `No ${identity.map((field) => gateFieldTitle(field).toLowerCase()).join(' or ')}`,
      fields: identity,
    })
  const absent = missing(REQUIRABLE_FIELDS.filter((field) => required.includes(field)))
  if (absent.length > 0) {
    holds.push({
      reason: 'required',
      message: `${andList(absent.map(gateFieldTitle))} ${absent.length === 1 ? 'is' : 'are'} empty; ${requiredBy} requires ${absent.length === 1 ? 'it' : 'them'}`,
      fields: absent,
    })
  }
  if (rules.holdBadCheckDigits && gaps.includes(CHECK_DIGIT_GAP))
    holds.push({
      reason: 'check-digit',
      message: checkDigitMessage('The barcode’s check digit is wrong', requiredBy),
    })
  if (!rules.takesSamples && gaps.includes(SAMPLE_GAP))
    holds.push({ reason: 'sample', message: sampleMessage(['any'], requiredBy) })
  return holds
}

/** How a hold names the samples a SKU uses; `any` when only its gaps are known, not which. */
const SAMPLE_WORDS: Readonly<Record<SampleName | 'other' | 'any', string>> = {
  model: 'the sample model',
  environment: 'the sample environment',
  picture: 'the sample picture',
  other: 'a sample address',
  any: 'the sample model or pictures',
}

/**
 * A sample hold's words: which samples the SKU uses, to be replaced before it goes to `heldBy` (a
 * profile's name; the CLI's "this push" or "this check" name no place, so none is said).
 */
function sampleMessage(used: readonly (keyof typeof SAMPLE_WORDS)[], heldBy: string): string {
  const words = used.map((name) => SAMPLE_WORDS[name])
  const them = words.length === 1 && used[0] !== 'any' ? 'it' : 'them'
  const to = heldBy.startsWith('this ') ? 'anywhere but a sandbox' : `to ${heldBy}`
  return `Uses ${andList(words)}: replace ${them} before sending ${to}`
}

/** Which samples a payload names, in the order of SAMPLE_WORDS. */
function samplesUsed(payload: unknown): (SampleName | 'other')[] {
  const found = new Set<SampleName | 'other'>()
  const visit = (value: unknown) => {
    if (typeof value === 'string') {
      if (isSampleAddress(value)) found.add(sampleAt(value) ?? 'other')
    } else if (Array.isArray(value)) value.forEach(visit)
    else if (isRecord(value)) Object.values(value).forEach(visit)
  }
  visit(payload)
  return (['model', 'environment', 'picture', 'other'] as const).filter((name) => found.has(name))
}

/** A check-digit hold's words: what is wrong, and who holds such SKUs back. */
function checkDigitMessage(wrong: string, heldBy: string): string {
  return `${wrong}; ${heldBy} holds such SKUs back`
}

/**
 * Every reason a SKU payload is held back for by its own fields, in `holdsForGaps`' order, each in
 * the payload's words (the CLI, which has no stored column, asks this; so does the editor, before
 * its edits are saved). `requiredBy` as for `holdsForGaps`: the CLI's required fields are its
 * push's (`--require`, the profile's, or the default).
 */
export function holdsOf(
  payload: unknown,
  required: readonly string[],
  requiredBy = 'this push',
  rules: HoldRules = {},
): Hold[] {
  return holdsForGaps(skuGaps(payload), required, requiredBy, rules).map((hold) => {
    // The payload is at hand: say which samples it uses, and which digit (or letter) is wrong, as
    // validation does.
    if (hold.reason === 'sample') return { ...hold, message: sampleMessage(samplesUsed(payload), requiredBy) }
    if (hold.reason !== 'check-digit') return hold
    return { ...hold, message: checkDigitMessage(barcodeFinding(payload)!.message, requiredBy) }
  })
}

/**
 * A barcode as the service would compare it: without the spaces around it. Case and inner
 * characters are kept: a barcode is the shop's text, and "0012" is not "12".
 */
export function barcodeKey(value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}

/**
 * Every character `barcodeKey` strips (`String.prototype.trim`: ECMAScript's white space and line
 * terminators), in code-unit order: a barcode starting with one is found by its key through an
 * index of barcodes as written. Listed rather than found by trying all 65,536 code units when the
 * module loads, which the window's start paid for (issue #37); a test checks the list.
 */
export const TRIMMED_CHARACTERS: readonly string[] = [
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  ' ',
  '\u00a0',
  '\u1680',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
]

/** One SKU that would be sent, by its barcode (as `barcodeKey` reads it) and how a person finds it. */
export interface SendCandidate<K> {
  key: K
  barcode: string
  label: string
  /**
   * What it holds, as a text that is the same for the same SKU (a hash of its payload), where a
   * file may repeat a row: a row repeating another exactly is that SKU again, not another.
   */
  content?: string
}

/** A barcode the destination has or may have from another SKU, and in which words to say so. */
export interface CreatedThere {
  /** "created on Production by draft “Aviator 1”", "may have been created (outcome unknown) by row 12". */
  by: string
}

/** Where a holder stands with the destination: created, in doubt, or in a run that is sending it now. */
export type HolderState = 'synced' | 'unknown' | 'failed' | 'being sent'

/**
 * Who has a barcode at a destination, in a reason's words: `where.on` as "created …" says the
 * place ("on Sandbox", "at https://…"), `where.to` as "sent to …" does; `by` names the SKU.
 */
export function heldThere(state: HolderState, where: { on: string; to: string }, by: string): CreatedThere {
  if (state === 'synced') return { by: `created ${where.on} by ${by}` }
  const doubt = state === 'being sent' ? 'it is being sent' : `outcome ${state}`
  return { by: `sent to ${where.to} by ${by}, which may have created it (${doubt})` }
}

/**
 * The SKUs of a send held back for their barcode: every SKU whose barcode another SKU of the same
 * send carries (which of them is right is for a person to say: none goes), and every SKU whose
 * barcode `createdThere` has from another SKU. Rows of a file that all repeat one SKU exactly (the
 * same `content`) are that SKU again: the first is sent, the others held as its repeats (a
 * tryout's Dutch sheet repeated rows exactly, and push held every copy). Candidates
 * without a barcode are left to `holdForGaps`.
 */
export function barcodeHolds<K>(
  candidates: Iterable<SendCandidate<K>>,
  createdThere: ReadonlyMap<string, CreatedThere>,
): Map<K, Hold> {
  const byBarcode = new Map<string, SendCandidate<K>[]>()
  for (const candidate of candidates) {
    if (candidate.barcode === '') continue
    const same = byBarcode.get(candidate.barcode)
    if (same) same.push(candidate)
    else byBarcode.set(candidate.barcode, [candidate])
  }
  const holds = new Map<K, Hold>()
  for (const [barcode, same] of byBarcode) {
    const created = createdThere.get(barcode)
    if (created) {
      for (const candidate of same) {
        holds.set(candidate.key, {
          reason: 'created',
          message: `Barcode ${barcode} was already ${created.by}: sending it would create a second copy`,
        })
      }
    } else if (isOneSkuRepeated(same)) {
      const [first, ...repeats] = same
      for (const repeat of repeats) {
        holds.set(repeat.key, {
          reason: 'repeat',
          message: `The same SKU as ${first!.label}, which is sent: not sent twice`,
        })
      }
    } else if (same.length > 1) {
      for (const candidate of same) {
        const others = same.filter((other) => other !== candidate).map((other) => other.label)
        holds.set(candidate.key, {
          reason: 'duplicate',
          message: `Barcode ${barcode} is also on ${counted(others.length, 'other SKU')} to be sent (${shortList(others)}): keep one`,
        })
      }
    }
  }
  return holds
}

/**
 * Whether the candidates sharing a barcode are one SKU written again and again (the same
 * `content`): then the first is sent and the others are held as its repeats. Any two that differ
 * leave all of them to be held as sharing the barcode.
 */
function isOneSkuRepeated<K>(same: readonly SendCandidate<K>[]): boolean {
  const [first, ...rest] = same
  return (
    first?.content !== undefined && rest.length > 0 && rest.every((other) => other.content === first.content)
  )
}

/** A few names, then how many more. */
function shortList(labels: readonly string[], shown = 3): string {
  const head = labels.slice(0, shown).join(', ')
  return labels.length > shown ? `${head} and ${labels.length - shown} more` : head
}
