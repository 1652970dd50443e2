import { describe, expect, it } from 'vitest'
import { lintMessages, projectEslint } from './lint-messages.ts'

const BOUNDARY_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax'])

/** The boundary rules' messages for `code` linted as if it were the file at `filePath`. */
const boundaryMessages = (code: string, filePath: string) => lintMessages(code, filePath, BOUNDARY_RULES)

const USES_IPC_MAIN = `import { ipcMain } from 'electron'\nipcMain.handle('x', () => 1)\n`
const USES_IPC_RENDERER = `import { contextBridge, ipcRenderer } from 'electron'\ncontextBridge.exposeInMainWorld('x', ipcRenderer)\n`

describe('the IPC boundary lint rule', () => {
  it.each([
    ['src/main/ipc.ts', USES_IPC_MAIN],
    ['src/preload/index.ts', USES_IPC_RENDERER],
  ])('allows ipcMain/ipcRenderer in the wiring file %s', async (filePath, code) => {
    expect(await boundaryMessages(code, filePath)).toEqual([])
  })

  it.each([
    ['src/main/handlers/service.ts', USES_IPC_MAIN],
    ['src/main/index.ts', USES_IPC_MAIN],
    ['src/preload/extra.ts', USES_IPC_RENDERER],
    ['src/main/other.ts', `import { ipcRenderer as bridge } from 'electron/renderer'\nvoid bridge\n`],
    ['src/main/other.ts', `import { ipcMain } from 'electron/main'\nvoid ipcMain\n`],
    ['src/main/other.ts', `export { ipcMain } from 'electron'\n`],
    ['src/main/other.ts', `import * as electron from 'electron'\nvoid electron\n`],
    ['src/main/other.ts', `import electron from 'electron'\nelectron.ipcMain.handle('x', () => 1)\n`],
    ['src/main/other.ts', `import electron from 'electron'\nvoid electron['ipcMain']\n`],
    ['src/main/other.ts', `import electron from 'electron'\nconst { ipcMain } = electron\nvoid ipcMain\n`],
    ['test/unit/main/some.test.ts', USES_IPC_MAIN],
  ])('forbids ipcMain/ipcRenderer in %s: %s', async (filePath, code) => {
    const messages = await boundaryMessages(code, filePath)
    expect(messages.length).toBeGreaterThan(0)
    expect(messages.join('\n')).toMatch(
      /Only src\/main\/ipc\.ts and src\/preload\/index\.ts use ipcMain\/ipcRenderer/,
    )
  })

  it.each(['src/main/index.ts', 'src/main/window.ts', 'src/preload/other.ts'])(
    'allows the rest of Electron in %s',
    async (filePath) => {
      const code = `import { app, BrowserWindow, contextBridge } from 'electron'\nvoid [app, BrowserWindow, contextBridge]\n`
      expect(await boundaryMessages(code, filePath)).toEqual([])
    },
  )

  it.each([
    ['src/shared/ipc.ts', `import { app } from 'electron'\nvoid app\n`],
    ['src/shared/x.ts', `import type { App } from 'electron'\nexport type A = App\n`],
    ['src/renderer/src/main.ts', `import { shell } from 'electron'\nvoid shell\n`],
    [
      'src/renderer/src/App.vue',
      `<script setup lang="ts">\nimport { shell } from 'electron'\nvoid shell\n</script>\n`,
    ],
    ['src/cli/main.ts', `import { app } from 'electron/main'\nvoid app\n`],
    ['src/cli/main.ts', `export const load = () => import('electron')\n`],
    [
      'src/cli/main.ts',
      `declare const require: (id: string) => unknown\nexport const e = require('electron')\n`,
    ],
  ])('forbids Electron entirely in %s: %s', async (filePath, code) => {
    const messages = await boundaryMessages(code, filePath)
    expect(messages.length).toBeGreaterThan(0)
    expect(messages.join('\n')).toMatch(/run without Electron/)
  })

  it('does not flag unrelated modules whose names start with electron', async () => {
    const code = `import Store from 'electron-store'\nvoid Store\n`
    expect(await boundaryMessages(code, 'src/renderer/src/x.ts')).toEqual([])
  })

  it('passes on the real wiring files', async () => {
    const results = await projectEslint().lintFiles(['src/main/ipc.ts', 'src/preload/index.ts'])
    expect(results).toHaveLength(2)
    expect(results.flatMap((result) => result.messages)).toEqual([])
  })
})
