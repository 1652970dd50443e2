const REDACTED = '[redacted]'

/**
 * The forms in which a token may show up in text we did not write (an error from the keychain or
 * the network stack): as pasted, base64-encoded (a profile may send it so) and URL-encoded.
 */
function secretForms(secret: string): string[] {
  const forms = new Set([secret, Buffer.from(secret, 'utf8').toString('base64'), encodeURIComponent(secret)])
  return [...forms].filter((form) => form.length > 0).sort((a, b) => b.length - a.length)
}

/** `text` with every occurrence of the secret (in any of its forms) replaced by a marker. */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret) return text
  let result = text
  for (const form of secretForms(secret)) result = result.split(form).join(REDACTED)
  return result
}
