/**
 * electron-vite's `?asset` import (as its `electron-vite/node` types declare it): copies the file
 * beside main's bundle and gives that copy's absolute path. Only reached in the bundle.
 */
declare module '*?asset' {
  const path: string
  export default path
}
