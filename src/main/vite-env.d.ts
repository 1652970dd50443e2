// electron-vite builds main with Vite, which replaces `import.meta.env.DEV` at build time: true
// under `npm run dev` (development mode), false for `npm start` and a packaged app. Vitest sets it too.
interface ImportMetaEnv {
  readonly DEV: boolean
}
interface ImportMeta {
  readonly env: ImportMetaEnv
}
