/**
 * A barcode read as a GTIN: the GS1 numbers on products (EAN-8, UPC-A, EAN-13, GTIN-14), whose
 * last digit is a check digit computed from the others (GS1 General Specifications, 7.9.1: the
 * digits from the right weighted 3, 1, 3, …, the check digit what brings the sum to a multiple of
 * 10). A wrong one is a typing slip or a number made up: the product behind it is not the one a
 * scanner finds. Only text that is, or is nearly, all digits of a GTIN's length is judged: a shop's
 * own codes (letters, dashes, other lengths) are not GTINs, and nothing is said about them.
 */

/** The GTIN forms by their number of digits. */
const FORMS = { 8: 'EAN-8', 12: 'UPC-A', 13: 'EAN-13', 14: 'GTIN-14' } as const
export type GtinForm = (typeof FORMS)[keyof typeof FORMS]

/**
 * Letters typed (or read by a person, or by OCR) where a digit was meant: O for 0, I and l for 1,
 * S for 5, B for 8. Other letters make a shop code, not a slip.
 */
const LOOKALIKES: Readonly<Record<string, string>> = { O: '0', o: '0', I: '1', l: '1', S: '5', B: '8' }

/**
 * At most this many look-alike letters make a barcode "nearly all digits": beyond, the text is
 * more likely a code of the shop's own that happens to have a GTIN's length.
 */
const MOST_LETTERS = 2

/** A letter where a digit belongs, at its place in the barcode (counted from 1). */
export interface LetterForDigit {
  position: number
  letter: string
  digit: string
}

export interface GtinFinding {
  /** `check-digit`: all digits, and the last one is wrong; `letter`: a letter stands for a digit. */
  kind: 'check-digit' | 'letter'
  form: GtinForm
  /** The check digit the other digits call for (the letters read as their digits). */
  expected: number
  /** The check digit as written, the letter read as its digit if it is one. */
  written: number
  /** The letters standing for digits (none for `check-digit`). */
  letters: LetterForDigit[]
  /** What is wrong, in words: "The check digit of this EAN-13 should be 7, not 3". */
  message: string
}

/** The GS1 check digit of a GTIN's digits before it. */
export function gtinCheckDigit(digits: string): number {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    const weight = (digits.length - i) % 2 === 1 ? 3 : 1
    sum += (digits.charCodeAt(i) - ZERO) * weight
  }
  return (10 - (sum % 10)) % 10
}

const ZERO = 48

/**
 * What is wrong with `barcode` as a GTIN, or undefined when it is a right one or not a GTIN at
 * all. Spaces around it are not part of it (as the gates read a barcode). Read on every save and
 * every imported row: one pass over the characters, no copies for a barcode of digits.
 */
export function gtinFinding(barcode: string): GtinFinding | undefined {
  const text = barcode.trim()
  const form = FORMS[text.length as keyof typeof FORMS] as GtinForm | undefined
  if (form === undefined) return undefined
  const letters: LetterForDigit[] = []
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i) - ZERO
    if (code >= 0 && code <= 9) continue
    const digit = LOOKALIKES[text[i]!]
    if (digit === undefined) return undefined
    letters.push({ position: i + 1, letter: text[i]!, digit })
  }
  if (letters.length > MOST_LETTERS) return undefined
  // The letters read as the digits they stand for.
  let digits = text
  for (const { position, digit } of letters)
    digits = `${digits.slice(0, position - 1)}${digit}${digits.slice(position)}`
  const expected = gtinCheckDigit(digits.slice(0, -1))
  const written = Number(digits.at(-1))
  if (letters.length === 0) {
    if (expected === written) return undefined
    return {
      kind: 'check-digit',
      form,
      expected,
      written,
      letters,
      message: `The check digit of this ${form} should be ${expected}, not ${written}`,
    }
  }
  const said = letters.map(
    (letter) =>
      `the ${ordinal(letter.position)} character is the letter ${letter.letter}, not the digit ${letter.digit}`,
  )
  const readAs = letters.length === 1 ? letters[0]!.digit : 'digits'
  const check =
    expected === written ? '' : `; read as ${readAs}, its check digit should be ${expected}, not ${written}`
  return {
    kind: 'letter',
    form,
    expected,
    written,
    letters,
    message: `In this ${form}, ${said.join(', and ')}${check}`,
  }
}

/** 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 14th. */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th')
  return `${n}${suffix}`
}
