/** The file an app draft is exported to: exactly the body of `POST …/v1.0/apps`, pretty-printed. */
export function appRequestJson(payload: unknown): string {
  return `${JSON.stringify(payload, null, 2)}\n`
}

/** `app-northwind-skin-check.json`; `app-request.json` for a draft without a usable name. */
export function appRequestFileName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return slug ? `app-${slug}.json` : 'app-request.json'
}
