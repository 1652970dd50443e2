// `npm run docs:screenshots`: the README's pictures (docs/screenshots/), taken by the browser test
// that walks the README's first five minutes (test/e2e/first-hour.spec.ts) and the try-on's tests,
// on a fresh build. The
// pictures are of the app as it is, and the walk that takes them is the one the test suite checks.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'

/**
 * Runs a command in the project's folder, and stops with its status when it fails.
 * @param {string} command
 * @param {string[]} args
 */
function run(command, args, env = process.env) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env,
    shell: process.platform === 'win32',
  })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

run(npm, ['run', 'build'])
const docs = {
  ...process.env,
  DOCS_SCREENSHOTS_DIR: fileURLToPath(new URL('../docs/screenshots', import.meta.url)),
}
run(
  npx,
  ['playwright', 'test', '--project=browser', 'test/e2e/first-hour.spec.ts', '--grep', '1440 px'],
  docs,
)
// The try-on beside the form, and a contact sheet.
run(
  npx,
  [
    'playwright',
    'test',
    '--project=browser',
    'test/e2e/try-on-view.spec.ts',
    'test/e2e/try-on-contact-sheet.spec.ts',
    '--grep',
    'each sample face|draws the selected drafts',
  ],
  docs,
)
process.stdout.write('README pictures written to docs/screenshots/\n')
