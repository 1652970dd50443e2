// No electron import: the build config or a test can read the policy without starting Electron.

type Directives = Record<string, readonly string[]>

const APP_DIRECTIVES: Directives = {
  'default-src': ["'self'"],
  // No 'unsafe-inline', no 'unsafe-eval': an injected string can never become running code.
  // 'wasm-unsafe-eval' lets the preview compile WebAssembly (the Draco and meshopt decoders, served
  // from the app's origin), and nothing else: it does not allow eval or new Function. (Basis, which
  // needs new Function, runs in main: src/node/ktx2-transcoder.ts.)
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  // The import's and the AR preview's workers are files of the app's; three's Draco loader (in the
  // preview's worker) builds its decoder workers from blob: addresses holding the loader's own
  // worker code and the decoder the app serves (src/renderer/src/features/skus/preview/
  // model-decoders.ts). A blob: can only be made by code already running in the app, so this adds
  // no way in; decoder workers of our own would mean keeping copies of three's worker code in step
  // with every three.js update.
  'worker-src': ["'self'", 'blob:'],
  'style-src': ["'self'"],
  // No picture from the network: an address in an imported sheet would make the page call it,
  // loopback and the office network included, and tell it the user's address. Vite inlines small
  // assets as data: URLs; pictures the editors' previews fetch through main (the guarded fetcher)
  // are blob: URLs; the list's thumbnails are 'self': a path of the app's origin that main
  // answers with the photo it fetched with the same guard (src/node/thumbnail-route.ts), so the
  // list keeps the browser's lazy loading and only rows on screen ask.
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  // The renderer never talks to the network itself: requests to the service go through main.
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
}

function serialize(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ')
}

/** The policy sent as a response header with every file of the app (see app-files.ts) and every page main loads. */
export const CONTENT_SECURITY_POLICY = serialize(APP_DIRECTIVES)

/**
 * The policy for the `<meta http-equiv="Content-Security-Policy">` tag of index.html: a second
 * guard that holds wherever the page is opened from, header or not. `frame-ancestors` is left out
 * because browsers ignore it in a meta tag (with a warning).
 */
export const META_CONTENT_SECURITY_POLICY = serialize(
  Object.fromEntries(Object.entries(APP_DIRECTIVES).filter(([name]) => name !== 'frame-ancestors')),
)

/**
 * Development only: the Vite dev server injects component styles as `<style>` elements and talks
 * to the page over a websocket. Header and meta tag are both enforced, so this allows what the
 * renderer's dev-server plugin adds to the meta tag and no more; scripts stay as strict as built.
 */
export const DEV_CONTENT_SECURITY_POLICY = serialize({
  ...APP_DIRECTIVES,
  'style-src': ["'self'", "'unsafe-inline'"],
  'connect-src': ["'self'", 'ws:', 'http://localhost:*'],
})
