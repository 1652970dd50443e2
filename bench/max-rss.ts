import { writeSync } from 'node:fs'

/**
 * Loaded with `--import` into a process the CLI benchmark runs: as the process exits, its peak
 * resident memory (KB, as `process.resourceUsage` gives it) goes to file descriptor 3, which the
 * benchmark opened as a pipe. Portable where `/usr/bin/time -v` is not.
 */
process.on('exit', () => {
  writeSync(3, JSON.stringify({ maxRSS: process.resourceUsage().maxRSS }))
})
