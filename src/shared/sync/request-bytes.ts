/**
 * The size of a request body in UTF-8 bytes, for the request history. Counted from the JSON text
 * without encoding it (pure TypeScript: no Buffer, no TextEncoder needed).
 */
export function utf8Length(text: string): number {
  // Most bodies are ASCII, where characters are bytes; the regex runs natively, the loop does not.
  if (!/[\u0080-\uffff]/.test(text)) return text.length
  let bytes = 0
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        index++
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}

/** The body's bytes, or 0 when it cannot be written as JSON (the transport then says so). */
export function bodyBytes(body: unknown): number {
  try {
    return utf8Length(JSON.stringify(body) ?? '')
  } catch {
    return 0
  }
}
