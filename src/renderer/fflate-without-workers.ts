import {
  zipSync,
  type AsyncZipOptions,
  type AsyncZippable,
  type FlateCallback,
  type FlateError,
} from 'fflate/browser'

/**
 * fflate as the page gets it (an alias in electron.vite.config.ts). Its asynchronous zip() hands
 * files over ~160 KB to workers it makes from blob: URLs, with code it builds from its functions'
 * source text at run time: an XLSX export of a few hundred drafts failed with nothing written when
 * the CSP refused blob: workers, and a minified build is where such code breaks. Here zip()
 * compresses in place, then answers as the asynchronous one does, whatever the CSP allows.
 * Everything else is fflate's own.
 */
export * from 'fflate/browser'

export function zip(
  data: AsyncZippable,
  opts: AsyncZipOptions | FlateCallback,
  cb?: FlateCallback,
): () => void {
  const callback = typeof opts === 'function' ? opts : cb!
  const options = typeof opts === 'function' ? {} : opts
  let archive: Uint8Array<ArrayBuffer> | undefined
  let failure: FlateError | undefined
  try {
    archive = zipSync(data, options)
  } catch (error) {
    failure = error as FlateError
  }
  // Called back later, never before zip() returns, as fflate's own zip() does.
  queueMicrotask(() => callback(failure ?? null, archive ?? new Uint8Array()))
  return () => {}
}
