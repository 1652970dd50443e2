import { createPackage } from '@electron/asar'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { distArguments, standInDistribution } from '../test/unit/packaging/stand-in-distribution.ts'
import { runNpm, scratchFolder, startEnvironment } from '../test/unit/scripts/fresh-clone.ts'
import { log, median, result, type BenchResult } from './result.ts'

/**
 * Packing the app: `npm run dist -- --linux dir` (electron-builder, as on a release machine) against
 * a stand-in Electron distribution, as test/unit/packaging/dist.test.ts packs it. The baseline is
 * the archive alone: `out/` (the three builds) put in an asar by @electron/asar, the step at the
 * heart of packing, without electron-builder's dependency walk, copies and fuses. Three of each,
 * medians. Needs a build (`npm run build`). Goal: ratio ≤ 20 (the packaging test used to allow a
 * minute); 11.4 measured on the shared 2-core machine (11.3 s against 1.0 s).
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url))
const RUNS = 3

export async function packScenario(): Promise<BenchResult[]> {
  const scratch = scratchFolder('bench-pack')
  try {
    const electronDist = standInDistribution(join(scratch.dir, 'electron-dist'))
    const packs: number[] = []
    const archives: number[] = []
    for (let n = 0; n < RUNS; n++) {
      const archive = join(scratch.dir, `archive-${n}.asar`)
      let startedAt = performance.now()
      await createPackage(join(ROOT, 'out'), archive)
      archives.push(performance.now() - startedAt)

      startedAt = performance.now()
      const run = await runNpm(
        distArguments(electronDist, join(scratch.dir, `dist-${n}`)),
        ROOT,
        startEnvironment({}),
      )
      packs.push(performance.now() - startedAt)
      if (run.status !== 0) throw new Error(`npm run dist failed (exit code ${run.status}):\n${run.output}`)
      log(`pack: ${packs.at(-1)!.toFixed(0)} ms, the archive alone ${archives.at(-1)!.toFixed(0)} ms`)
    }
    return [result('pack', 'dist-linux-dir', median(packs), median(archives))]
  } finally {
    scratch.dispose()
  }
}
