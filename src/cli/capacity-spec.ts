import { CapacityModelError, parseCapacityModel } from '#node/sandbox/capacity.ts'
import type { CapacityModel } from '#node/sandbox/options.ts'
import { CliError } from './io.ts'

const KEYS: Record<string, keyof CapacityModel> = {
  slots: 'slots',
  latency: 'latencyMs',
  'retry-after': 'retryAfterSeconds',
}

/**
 * `--capacity SPEC`, the sandbox's capacity model in one word: `slots=N:latency=MS[:retry-after=S]`,
 * for example `slots=4:latency=2800` (the service's own load test: 2.8 s a batch, 4 at once).
 */
export function parseCapacitySpec(spec: string): CapacityModel {
  const fail = (why: string) => new CliError(`Bad --capacity "${spec}": ${why}`, 'sandbox')
  const model: Record<string, number> = {}
  for (const part of spec.trim().split(':')) {
    const equals = part.indexOf('=')
    const key = equals < 0 ? part : part.slice(0, equals)
    const field = Object.hasOwn(KEYS, key) ? KEYS[key] : undefined
    if (equals < 0 || !field) {
      throw fail(`"${part}" is not one of slots=N, latency=MS, retry-after=SECONDS`)
    }
    const value = part.slice(equals + 1)
    if (!/^\d+$/.test(value)) throw fail(`${key} must be a whole number, not "${value}"`)
    if (field in model) throw fail(`${key} is given twice`)
    model[field] = Number(value)
  }
  if (model.slots === undefined || model.latencyMs === undefined)
    throw fail('slots and latency are both needed')
  try {
    return parseCapacityModel(model)
  } catch (error) {
    if (!(error instanceof CapacityModelError)) throw error
    const problem = error.problems[0]
    const words = Object.entries(KEYS).find(([, field]) => field === problem?.path)?.[0] ?? problem?.path
    throw fail(problem ? `${words}: ${problem.message}` : error.message)
  }
}
