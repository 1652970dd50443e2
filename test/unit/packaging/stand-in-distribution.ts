import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { electronVersion } from '../scripts/electron-stand-ins.ts'

/** The fuse wire's marker, as @electron/fuses looks for it (its `constants.js`). */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
/**
 * Electron 45's fuses as it ships them (electron/electron build/fuses/fuses.json5): run as node,
 * cookie encryption, NODE_OPTIONS, inspect arguments, asar integrity, only load from asar, browser
 * V8 snapshot, file protocol privileges, WebAssembly trap handlers. '1' on, '0' off.
 */
const SHIPPED_FUSES = '101100011'

/**
 * An unpacked Electron distribution for Linux with nothing of Electron's in it: `electron` is a
 * shell script that carries a fuse wire (the sentinel, the wire's version, its length, one byte a
 * fuse) where Electron's binary has it, so @electron/fuses flips it as it would the real one.
 */
export function standInDistribution(dir: string): string {
  mkdirSync(join(dir, 'locales'), { recursive: true })
  mkdirSync(join(dir, 'resources'), { recursive: true })
  const wire = Buffer.concat([
    Buffer.from(`# ${FUSE_SENTINEL}`, 'latin1'),
    Buffer.from([1, SHIPPED_FUSES.length]),
    Buffer.from(SHIPPED_FUSES, 'latin1'),
    Buffer.from('\n'),
  ])
  const executable = join(dir, 'electron')
  writeFileSync(
    executable,
    Buffer.concat([Buffer.from('#!/bin/sh\necho "a stand-in for Electron"\nexit 0\n'), wire]),
  )
  chmodSync(executable, 0o755)
  writeFileSync(join(dir, 'version'), `${electronVersion()}\n`)
  writeFileSync(join(dir, 'LICENSE'), 'Electron’s licence would be here.\n')
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '<!doctype html><title>Chromium’s licences</title>\n')
  writeFileSync(join(dir, 'locales', 'en-US.pak'), '')
  return dir
}

/**
 * `npm run dist -- --linux dir` into `output`, against the stand-in distribution at `electronDist`:
 * what the packaging test checks and the pack benchmark (bench/pack.ts) times.
 */
export function distArguments(electronDist: string, output: string): string[] {
  // --ignore-scripts: npm skips `predist` (the build is made beforehand), not `dist`.
  return [
    'run',
    'dist',
    '--ignore-scripts',
    '--',
    '--linux',
    'dir',
    '--publish',
    'never',
    `-c.electronDist=${electronDist}`,
    `-c.directories.output=${output}`,
  ]
}
