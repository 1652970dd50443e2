import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** The encodings a careless implementation might write a token in. */
function encodings(secret: string): Buffer[] {
  return [
    Buffer.from(secret, 'utf8'),
    Buffer.from(Buffer.from(secret, 'utf8').toString('base64'), 'utf8'),
    Buffer.from(Buffer.from(secret, 'utf8').toString('base64url'), 'utf8'),
    Buffer.from(secret, 'utf16le'),
  ]
}

async function* filesUnder(dir: string): AsyncGenerator<string> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* filesUnder(path)
    else if (entry.isFile()) yield path
  }
}

/** Every regular file under the roots whose bytes contain the secret, plainly or base64-encoded. */
export async function filesContaining(
  roots: string[],
  secret: string,
): Promise<{ scanned: string[]; found: string[] }> {
  const needles = encodings(secret)
  const found: string[] = []
  const scanned: string[] = []
  for (const root of roots) {
    for await (const file of filesUnder(root)) {
      if ((await stat(file)).size > 64 * 1024 * 1024) continue
      const bytes = await readFile(file)
      scanned.push(file)
      if (needles.some((needle) => bytes.includes(needle))) found.push(file)
    }
  }
  return { scanned, found }
}
