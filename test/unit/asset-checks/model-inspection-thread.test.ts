import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Document, NodeIO } from '@gltf-transform/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_BUDGETS } from '#shared/asset-checks/budgets.ts'
import { inspectModel, type ModelInspectionOptions } from '#shared/asset-checks/inspect-model.ts'
import type { AssetOutcome } from '#shared/asset-checks/results.ts'
import { createAssetChecker } from '#node/asset-checks/asset-checker.ts'
import {
  createModelInspectionThread,
  type ModelInspectionThread,
  type ModelInspectionThreadOptions,
} from '#node/asset-checks/model-inspection-thread.ts'
import { REPO_ROOT } from '../shared/contract-fixtures.ts'
import { serveAssets, type AssetServer } from './asset-files.ts'

// The model inspection main runs on a thread of its own (a worker): the same outcome as
// in-process, main's event loop free meanwhile, external files fetched by main, and a thread that
// crashes or hangs turned into an error for the models it was reading, never a check that does not end.

const ASSETS = join(REPO_ROOT, 'test/fixtures/assets')
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(ASSETS, name)))
const MISBEHAVING = new URL('./misbehaving-inspection-worker.ts', import.meta.url)

let threads: ModelInspectionThread[] = []
let servers: AssetServer[] = []
afterEach(async () => {
  await Promise.all([...threads.map((thread) => thread.close()), ...servers.map((server) => server.close())])
  threads = []
  servers = []
})

function startThread(options: ModelInspectionThreadOptions = {}): ModelInspectionThread {
  const thread = createModelInspectionThread(options)
  threads.push(thread)
  return thread
}

/**
 * The options the checker gives, with external files read from the fixtures' folder by name, each
 * address asked for noted in `asked`; `load` instead, when given.
 */
function inspection(
  url: string,
  asked: string[] = [],
  load?: (address: string) => Promise<Uint8Array>,
): ModelInspectionOptions {
  return {
    url,
    maxBytes: DEFAULT_BUDGETS.modelBytes.maximum,
    maxExternalFiles: 32,
    async loadExternal(address) {
      asked.push(address)
      return load ? load(address) : fixture(`external/${address.split('/').at(-1)}`)
    },
  }
}

/** Reads `name` on the thread and in-process (each its own copy of the bytes). */
async function bothWays(thread: ModelInspectionThread, url: string, bytes: Uint8Array) {
  return {
    inThread: await thread.inspectModel(url, bytes.slice(), inspection(url)),
    inProcess: await inspectModel(url, bytes.slice(), inspection(url)),
  }
}

/** Warm: started, its modules loaded, the validator run once. */
async function warmThread(options: ModelInspectionThreadOptions = {}): Promise<ModelInspectionThread> {
  const thread = startThread(options)
  const url = 'https://cdn.test/models/warm.glb'
  await thread.inspectModel(url, fixture('webp-textured.glb'), inspection(url))
  return thread
}

/**
 * A flat grid of `side` × `side` vertices in two triangles a cell, without compression (the
 * validator reads every index and vertex of it): 600 a side is 13 MB and 717,602 triangles,
 * about a tenth of a second's validation on the computer this was written on.
 */
async function gridModel(side: number): Promise<Uint8Array> {
  const positions = new Float32Array(side * side * 3)
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) positions.set([x, y, 0], (y * side + x) * 3)
  }
  const indices = new Uint32Array((side - 1) * (side - 1) * 6)
  for (let y = 0, k = 0; y < side - 1; y++) {
    for (let x = 0; x < side - 1; x++, k += 6) {
      const corner = y * side + x
      indices.set([corner, corner + 1, corner + side, corner + 1, corner + side + 1, corner + side], k)
    }
  }
  const document = new Document()
  const buffer = document.createBuffer()
  const primitive = document
    .createPrimitive()
    .setAttribute('POSITION', document.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer))
    .setIndices(document.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer))
  const node = document.createNode().setMesh(document.createMesh().addPrimitive(primitive))
  document.createScene().addChild(node)
  return new NodeIO().writeBinary(document)
}

describe('the same outcome as in-process', () => {
  it('every model fixture, valid, compressed or truncated', async () => {
    const thread = startThread()
    const names = readdirSync(ASSETS).filter((name) => name.endsWith('.glb'))
    expect(names).toContain('truncated.glb')
    for (const name of names) {
      const url = `https://cdn.test/models/${name}`
      const { inThread, inProcess } = await bothWays(thread, url, fixture(name))
      expect(inThread, name).toEqual(inProcess)
    }
    // Not two failures alike: the validator read each.
    const draco = await thread.inspectModel(
      'https://cdn.test/d.glb',
      fixture('draco-textured.glb'),
      inspection('https://cdn.test/d.glb'),
    )
    expect(draco).toMatchObject({ problems: [], facts: { triangles: 1552, drawCalls: 1 } })
    const truncated = await thread.inspectModel(
      'https://cdn.test/t.glb',
      fixture('truncated.glb'),
      inspection('https://cdn.test/t.glb'),
    )
    expect(truncated.problems.map((problem) => problem.severity)).toContain('error')
  })

  it('a .gltf’s external files are fetched in main by the caller’s loader, at the worker’s request', async () => {
    const thread = startThread()
    const url = 'https://cdn.test/models/textured.gltf'
    const asked: string[] = []
    const outcome = await thread.inspectModel(url, fixture('external/textured.gltf'), inspection(url, asked))
    expect(asked).toEqual(['https://cdn.test/models/textured.bin', 'https://cdn.test/models/react.png'])
    expect(outcome).toEqual(await inspectModel(url, fixture('external/textured.gltf'), inspection(url)))
    expect(outcome.facts).toMatchObject({ format: 'gltf', externalFiles: 2, triangles: 2 })

    // The loader's refusal reaches the model's problems in its words, as in-process.
    const noPicture = async (address: string) => {
      if (address.endsWith('.png')) throw new Error('the server answered 404 Not Found.')
      return fixture('external/textured.bin')
    }
    const missing = await thread.inspectModel(
      url,
      fixture('external/textured.gltf'),
      inspection(url, [], noPicture),
    )
    expect(missing).toEqual(
      await inspectModel(url, fixture('external/textured.gltf'), inspection(url, [], noPicture)),
    )
    expect(missing.problems).toContainEqual({
      severity: 'error',
      code: 'external-file',
      message: 'The external file react.png could not be loaded: the server answered 404 Not Found.',
    })
  })

  it('hands the bytes over instead of copying them; a view into a larger buffer is copied, the buffer left alone', async () => {
    const thread = startThread()
    const url = 'https://cdn.test/models/m.glb'
    const bytes = fixture('meshopt-suzi.glb')
    await thread.inspectModel(url, bytes, inspection(url))
    expect(bytes.byteLength).toBe(0)

    const larger = new Uint8Array(fixture('meshopt-suzi.glb').byteLength + 16)
    larger.set(fixture('meshopt-suzi.glb'), 8)
    const view = larger.subarray(8, larger.byteLength - 8)
    const outcome = await thread.inspectModel(url, view, inspection(url))
    expect(outcome.facts).toMatchObject({ triangles: 14_842 })
    expect(larger.byteLength).toBe(fixture('meshopt-suzi.glb').byteLength + 16)
  })
})

describe('main’s event loop while a large model validates', () => {
  /** How often a 10 ms interval ran while `read` was under way. */
  async function ticksDuring(read: () => Promise<AssetOutcome>) {
    let ticks = 0
    const timer = setInterval(() => ticks++, 10)
    try {
      const outcome = await read()
      return { ticks, outcome }
    } finally {
      clearInterval(timer)
    }
  }

  it('keeps turning with the thread, where in-process it stands still until the validator is done', async () => {
    const large = await gridModel(600)
    const url = 'https://cdn.test/models/large.glb'
    const thread = await warmThread()

    const inProcess = await ticksDuring(() => inspectModel(url, large.slice(), inspection(url)))
    const inThread = await ticksDuring(() => thread.inspectModel(url, large.slice(), inspection(url)))

    expect(inThread.outcome).toEqual(inProcess.outcome)
    expect(inThread.outcome).toMatchObject({ problems: [], facts: { triangles: 599 * 599 * 2 } })
    // The validator reads a model to its end without giving timers a turn: in-process, not one.
    expect(inProcess.ticks).toBe(0)
    expect(inThread.ticks).toBeGreaterThan(0)
  })
})

describe('a thread that stops', () => {
  it('crashes: the model is an error saying so, through the checker; the next check starts a new thread', async () => {
    const thread = startThread({ workerFile: MISBEHAVING })
    const server = await serveAssets({
      '/crash.glb': { body: fixture('draco-textured.glb') },
      '/model.glb': { body: fixture('draco-textured.glb') },
    })
    servers.push(server)
    const checker = () =>
      createAssetChecker({
        allowLocalAddresses: () => true,
        budgets: DEFAULT_BUDGETS,
        concurrency: 4,
        inspectModel: thread.inspectModel,
      })

    const first = checker()
    expect(await first.check(`${server.url}/crash.glb`, 'model')).toEqual({
      url: `${server.url}/crash.glb`,
      class: 'model',
      problems: [
        {
          severity: 'error',
          code: 'check-failed',
          message: 'The glTF-Validator stopped: it failed (a fault of the kind a validator bug would be).',
        },
      ],
    })
    expect(await checker().check(`${server.url}/model.glb`, 'model')).toMatchObject({
      problems: [],
      facts: { triangles: 1552 },
    })
  })

  it('ends itself: the model fails saying so, and the next model is read', async () => {
    const thread = startThread({ workerFile: MISBEHAVING })
    await expect(
      thread.inspectModel(
        'https://cdn.test/exit.glb',
        fixture('webp-textured.glb'),
        inspection('https://cdn.test/exit.glb'),
      ),
    ).rejects.toThrow('The glTF-Validator stopped: it ended unexpectedly (exit code 3).')
    const url = 'https://cdn.test/models/webp.glb'
    expect(await thread.inspectModel(url, fixture('webp-textured.glb'), inspection(url))).toEqual(
      await inspectModel(url, fixture('webp-textured.glb'), inspection(url)),
    )
  })

  it('hangs: past its time the model fails, and so does one read beside it; the next model is read', async () => {
    const thread = await warmThread({ workerFile: MISBEHAVING, timeoutMs: 500 })
    // A .gltf whose external file is on its way: the thread's time on it is stopped meanwhile.
    const gltf = 'https://cdn.test/models/textured.gltf'
    let asked!: () => void
    const waiting = new Promise<void>((resolve) => (asked = resolve))
    const beside = thread.inspectModel(
      gltf,
      fixture('external/textured.gltf'),
      inspection(gltf, [], async () => {
        asked()
        return new Promise<Uint8Array>(() => {})
      }),
    )
    await waiting
    const hung = thread.inspectModel(
      'https://cdn.test/hang.glb',
      fixture('webp-textured.glb'),
      inspection('https://cdn.test/hang.glb'),
    )

    await expect(hung).rejects.toThrow(
      'The glTF-Validator stopped: it took longer than 0.5 seconds over this model.',
    )
    await expect(beside).rejects.toThrow(
      'The glTF-Validator stopped: another model it was reading took longer than 0.5 seconds.',
    )
    const url = 'https://cdn.test/models/webp.glb'
    expect(await thread.inspectModel(url, fixture('webp-textured.glb'), inspection(url))).toMatchObject({
      problems: [],
    })
  })

  it('waiting for an external file is not the thread’s time', async () => {
    const thread = await warmThread({ timeoutMs: 500 })
    const url = 'https://cdn.test/models/textured.gltf'
    // The thread's clock on fake time: each file takes 0.4 seconds of it to arrive, 0.8 seconds in
    // all, over the limit if they counted (its timer would fire within the second file's wait).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    try {
      const slowly = async (address: string) => {
        vi.advanceTimersByTime(400)
        return fixture(`external/${address.split('/').at(-1)}`)
      }
      const outcome = await thread.inspectModel(
        url,
        fixture('external/textured.gltf'),
        inspection(url, [], slowly),
      )
      expect(outcome).toMatchObject({ problems: [], facts: { externalFiles: 2 } })
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('the process', () => {
  it('is not kept alive by an idle thread: a script that reads a model ends without closing it', () => {
    const module = pathToFileURL(join(REPO_ROOT, 'src/node/asset-checks/model-inspection-thread.ts')).href
    const model = join(ASSETS, 'draco-textured.glb')
    // A file, not --eval: the worker inherits Node's options, and --input-type is for --eval only.
    const dir = mkdtempSync(join(tmpdir(), 'catalog-desk-thread-'))
    const script = join(dir, 'read-model.mjs')
    writeFileSync(
      script,
      `import { readFileSync } from 'node:fs'
      const { createModelInspectionThread } = await import(${JSON.stringify(module)})
      const outcome = await createModelInspectionThread().inspectModel(
        'https://cdn.test/m.glb',
        new Uint8Array(readFileSync(${JSON.stringify(model)})),
        { url: 'https://cdn.test/m.glb', maxBytes: 1e8, maxExternalFiles: 32, loadExternal: () => Promise.reject(new Error('none')) },
      )
      console.log(outcome.facts.triangles)`,
    )
    try {
      const run = spawnSync(process.execPath, [script], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 20_000 })
      expect(run.stderr).toBe('')
      expect(run.status).toBe(0)
      expect(run.stdout.trim()).toBe('1552')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
