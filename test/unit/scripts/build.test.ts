import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { freshClone, runNpm, scratchFolder, startEnvironment } from './fresh-clone.ts'

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((entry) => join(dir, entry))
    .filter((path) => statSync(path).isFile())
}

// What `npm run build` gives users: the window parses the renderer at every start.
describe('npm run build', () => {
  const folders: Array<{ dispose(): void }> = []
  afterEach(() => {
    for (const folder of folders.splice(0)) folder.dispose()
  })

  it('emits a minified renderer without source maps', async () => {
    const folder = scratchFolder('build')
    folders.push(folder)
    const root = freshClone(folder.dir)

    const run = await runNpm(['run', 'build'], root, startEnvironment({}))

    expect(run.status, run.output).toBe(0)
    const out = join(root, 'out')
    const files = filesUnder(out)
    expect(files.filter((path) => path.endsWith('.map')).map((path) => relative(out, path))).toEqual([])
    const scripts = files.filter((path) => /\.[cm]?js$/.test(path))
    for (const path of scripts) {
      expect(readFileSync(path, 'utf8'), relative(out, path)).not.toContain('sourceMappingURL=')
    }

    // The preview's decoders (Draco's WebAssembly wrappers and its asm.js fallback) are emitted as
    // three ships them, already minified, and loaded only when a model needs one: weighed apart.
    const isDecoder = (path: string) => /[\\/]draco_[\w-]+\.js$/.test(path)
    const inRenderer = scripts.filter((path) => path.startsWith(join(out, 'renderer')))
    const renderer = inRenderer.filter((path) => !isDecoder(path))
    const decoders = inRenderer.filter(isDecoder)
    const size = (paths: string[]) => paths.reduce((sum, path) => sum + statSync(path).size, 0)
    // 3.4 MB unminified, about 1.5 MB minified: the budget leaves room to grow, not to unminify.
    expect(size(renderer)).toBeLessThan(2_000_000)
    expect(decoders.length).toBeGreaterThan(0)
    expect(size(decoders)).toBeLessThan(1_000_000)
    // Whitespace is 18% of the unminified renderer and 4% of the minified one (three.js keeps its
    // shaders as they are written, inside strings).
    const text = renderer.map((path) => readFileSync(path, 'utf8')).join('\n')
    expect((text.match(/\s/g)?.length ?? 0) / text.length).toBeLessThan(0.08)
  }, 60_000)
})
