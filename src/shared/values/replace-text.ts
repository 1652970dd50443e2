/**
 * Find and replace within one field's text, for a bulk edit: anywhere in the text (every place it
 * occurs), or only at its start, which is how an address moves ("https://old-cdn/" →
 * "https://cdn.example.net/" leaves "…/old-cdn/" further along an address alone). Case and spaces
 * count: an address is matched as it is written.
 */

/** `text`: every occurrence anywhere; `start`: only a value that begins with it. */
export type ReplaceMode = 'text' | 'start'

export interface Replacement {
  find: string
  replace: string
  mode: ReplaceMode
}

/**
 * `value` with the replacement made, or undefined when it leaves the value as it is: a value that
 * is not text, does not hold `find` (at its start, for `start`), or would come out the same. An
 * empty `find` matches nothing.
 */
export function replacedText(value: unknown, { find, replace, mode }: Replacement): string | undefined {
  if (typeof value !== 'string' || find === '') return undefined
  let next: string
  if (mode === 'start') {
    if (!value.startsWith(find)) return undefined
    next = replace + value.slice(find.length)
  } else {
    if (!value.includes(find)) return undefined
    next = value.split(find).join(replace)
  }
  return next === value ? undefined : next
}
