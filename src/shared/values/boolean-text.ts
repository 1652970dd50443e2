/**
 * Yes or no as sheets write it: true/false, yes/no, Y/N, 1/0, in any case, and yes and no in the
 * languages whose headers the import reads (field-words.ts: a French sheet's "Visible" column said
 * Oui and Non). Shops add their own (WooCommerce writes 1, 0 and -1 for published, draft and
 * private; only what is plainly yes or no is read, so -1 is an error to look at rather than a guess).
 */
const BOOLEANS: Record<string, boolean> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  y: true,
  n: false,
  1: true,
  0: false,
  // French, German, Dutch, Spanish and Italian, Portuguese, Polish.
  oui: true,
  non: false,
  vrai: true,
  faux: false,
  ja: true,
  nein: false,
  wahr: true,
  falsch: false,
  nee: false,
  sí: true,
  sì: true,
  si: true,
  verdadero: true,
  vero: true,
  falso: false,
  sim: true,
  não: false,
  nao: false,
  tak: true,
  nie: false,
}

export function readBooleanText(text: string): boolean | undefined {
  return BOOLEANS[text.trim().normalize('NFC').toLowerCase()]
}

/** Written as the contract's own words would be: JSON's true and false need no saying. */
export function isPlainBoolean(text: string): boolean {
  const lower = text.trim().toLowerCase()
  return lower === 'true' || lower === 'false'
}
