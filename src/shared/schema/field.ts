import { z } from './zod.ts'

/**
 * The words and hints of one field of the contract. Declared once, next to the field's schema, and
 * read by forms, column mapping, error messages and the JSON Schema export.
 */
export interface FieldMeta {
  /** What a catalog person calls the field ("Lens width"). Also the JSON Schema `title`. */
  title: string
  /** One sentence of help. Also the JSON Schema `description`. */
  description?: string
  /** Open enumerations: values seen in the service's docs, offered but not enforced. */
  examples?: readonly (string | number)[]
  /**
   * Whether a draft without this field gets a warning. The contract never says which fields are
   * required, so a missing listed field warns; fields the contract itself calls occasional do not.
   */
  expected: boolean
  kind: FieldKind
  /** Text fields that the contract says may be an empty string. */
  allowEmpty?: boolean
  /** Number fields: the stepper's increment, fitted to the field's unit (millimetres, degrees). */
  step?: number
  /** URL fields that address a picture, shown as a thumbnail beside the input. */
  showsImage?: boolean
}

export type FieldKind =
  'text' | 'url' | 'color' | 'number' | 'integer' | 'boolean' | 'section' | 'list' | 'slots' | 'json'

export type FieldWords = Omit<FieldMeta, 'kind' | 'expected'> & { expected?: boolean }

/** Every schema built by the helpers below, with its words. Walked by `catalogue.ts`. */
export const fieldRegistry = z.registry<FieldMeta>()

function describe<T extends z.ZodType>(schema: T, kind: FieldKind, words: FieldWords): z.ZodOptional<T> {
  const meta: FieldMeta = { ...words, kind, expected: words.expected ?? true }
  fieldRegistry.add(schema, meta)
  // The contract shows no required fields: presence is judged by the catalogue (warnings), so
  // every field is optional to the schema and only a present value of the wrong shape is an error.
  return schema.optional()
}

const HTTP_PROTOCOL = /^https?$/

export const text = (words: FieldWords) => describe(z.string(), 'text', words)

/** A web address; one with a space inside is refused by validation (validate.ts), which sees it as written. */
export const url = (words: FieldWords) =>
  words.allowEmpty
    ? describe(z.union([z.literal(''), z.url({ protocol: HTTP_PROTOCOL })]), 'url', words)
    : describe(z.url({ protocol: HTTP_PROTOCOL }), 'url', words)

export const color = (words: FieldWords) =>
  // Both cases spelled out rather than an `i` flag, which JSON Schema's patterns cannot carry.
  describe(
    z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/),
    'color',
    words,
  )

/** Zod 4 numbers reject NaN and ±Infinity, so a number here is always finite. */
export const number = (words: FieldWords) => describe(z.number(), 'number', words)

export const integer = ({ min, ...words }: FieldWords & { min?: number }) =>
  describe(min === undefined ? z.number().int() : z.number().int().min(min), 'integer', words)

export const boolean = (words: FieldWords) => describe(z.boolean(), 'boolean', words)

/**
 * A group of fields. Keys the contract does not name are kept, never stripped: the live service
 * has more fields than the contract. `others` types those extra keys where the contract says what
 * they hold (meta values are all text).
 */
export const section = <S extends z.ZodRawShape>(
  words: FieldWords,
  shape: S,
  others: z.ZodType = z.unknown(),
) => describe(z.object(shape).catchall(others), 'section', words)

/** A list of items of one shape (3D assets, banners, instructions). */
export const list = <T extends z.ZodType>(words: FieldWords, item: T) =>
  describe(z.array(item), 'list', words)

/** A list of exactly `length` positions, each empty (null) or holding an item. */
export const slots = <T extends z.ZodType>({ length, ...words }: FieldWords & { length: number }, item: T) =>
  describe(z.array(z.union([z.null(), item])).length(length), 'slots', words)

/** A value whose shape the contract leaves open: any JSON is accepted. */
export const json = <T extends z.ZodType>(words: FieldWords, schema: T) => describe(schema, 'json', words)

/** The item of a list: an object with fields, itself described so messages can name it. */
export const item = <S extends z.ZodRawShape>(words: FieldWords, shape: S) => {
  const schema = z.looseObject(shape)
  fieldRegistry.add(schema, { ...words, kind: 'section', expected: true })
  return schema
}

/** The item of a list of text (one language, one info text), described so messages can name it. */
export const textItem = (words: FieldWords) => {
  const schema = z.string()
  fieldRegistry.add(schema, { ...words, kind: 'text', expected: true })
  return schema
}
