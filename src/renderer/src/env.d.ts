/// <reference types="vite/client" />
import type { Api } from '#shared/ipc.ts'

declare global {
  interface Window {
    /** The typed bridge to the main process, built by the preload from src/shared/ipc.ts. */
    api: Api
  }
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}
