/**
 * electron-vite's `?modulePath` import (as its `electron-vite/node` types declare it, without the
 * rest of those, whose `import.meta.env` differs from main's vite-env.d.ts): bundles the module
 * as a file of its own beside main's bundle and gives that file's absolute path, for a worker.
 */
declare module '*?modulePath' {
  const path: string
  export default path
}
