/**
 * Addresses as the asset checks compare them. Two spellings of one address (`HTTPS://CDN.example.com:443/a.glb`
 * and `https://cdn.example.com/a.glb#top`) are one file, fetched and checked once a run.
 */

/**
 * The address as one file is known by: the URL standard's serialisation (scheme and host in
 * lower case, the default port dropped, `.` and `..` segments resolved, what needs it
 * percent-encoded) without the fragment, which is never sent. The query stays: a signed CDN
 * address is another file for every signature. Undefined for text that is not an absolute URL;
 * such an address is checked (and refused) under its own spelling.
 */
export function normaliseAddress(address: string): string | undefined {
  const url = URL.parse(address.trim())
  if (!url) return undefined
  // The fragment is all from the serialisation's first "#" (user info, path and query have
  // theirs percent-encoded): cut off, rather than set to '', which serialises the URL again.
  const { href } = url
  const fragment = href.indexOf('#')
  return fragment < 0 ? href : href.slice(0, fragment)
}

/**
 * A URI a .gltf file names (a buffer, an image) resolved against the model's address, as glTF
 * 2.0 says ("relative paths are relative to the current glTF asset"), or undefined when it cannot
 * be. Whatever it resolves to is still hostile: the fetcher refuses anything but http(s) and, unless
 * allowed, local addresses.
 */
export function resolveReference(base: string, uri: string): string | undefined {
  return URL.parse(uri, base)?.href
}
