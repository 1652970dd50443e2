import { BUILT_IN_PROFILES } from '#shared/profile.ts'

// Room for a "-N" suffix within the schema's 64 characters.
const MAX_SLUG_LENGTH = 56

/** A profile id made from its name ("Client EU (test)" → "client-eu-test"): lower-case ASCII and dashes. */
export function slugifyProfileName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '')
  return slug || 'profile'
}

/**
 * The id for a new custom profile: its name's slug, with "-2", "-3"… when taken. Built-in ids are
 * always taken, so "Production" gives "production-2" rather than replacing the built-in.
 */
export function newProfileId(name: string, takenIds: Iterable<string>): string {
  const taken = new Set([...takenIds, ...BUILT_IN_PROFILES.map((profile) => profile.id)])
  const slug = slugifyProfileName(name)
  if (!taken.has(slug)) return slug
  for (let n = 2; ; n++) {
    const id = `${slug}-${n}`
    if (!taken.has(id)) return id
  }
}
