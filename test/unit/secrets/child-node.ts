import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))
export const TOKEN_STORE_MODULE = new URL('../../../src/node/secrets/token-store.ts', import.meta.url).href
export const PROFILE_STORE_MODULE = new URL('../../../src/node/profiles/profile-store.ts', import.meta.url)
  .href

export interface ChildRun {
  result: unknown
  stdout: string
  stderr: string
}

/**
 * Runs an ES module (as text) in a fresh Node process, which imports the project's TypeScript
 * directly (type stripping), and parses the JSON line it prints last. The process starts from
 * nothing: no keychain connection or in-memory token survives from the test's own process.
 */
export function runNodeScript(script: string, env: NodeJS.ProcessEnv): Promise<ChildRun> {
  const flags = process.features.typescript ? [] : ['--experimental-strip-types']
  const args = [...flags, '--no-warnings', '--input-type=module', '--eval', script]
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { env, cwd: REPO_ROOT, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`The child process failed: ${error.message}\n${stderr}`))
        return
      }
      const last = stdout.trim().split('\n').at(-1) ?? ''
      try {
        resolve({ result: JSON.parse(last), stdout, stderr })
      } catch {
        reject(new Error(`The child process printed no JSON result:\n${stdout}\n${stderr}`))
      }
    })
  })
}
