/**
 * Open lists (category, gender, tone mapping…) keep any text, but a value that is one of the
 * suggested ones in another case is the suggested one: "Eyewear" and "EYEWEAR" are "eyewear", so
 * one category does not become three.
 */
export function suggestedSpelling(
  text: string,
  examples: readonly (string | number)[] | undefined,
): string | undefined {
  if (!examples?.length) return undefined
  const wanted = text.trim().toLowerCase()
  for (const example of examples) {
    if (typeof example === 'string' && example.toLowerCase() === wanted)
      return example === text ? undefined : example
  }
  return undefined
}
