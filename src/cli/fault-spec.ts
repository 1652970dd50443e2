import {
  delayOf,
  FAULT_KINDS,
  FaultRuleError,
  parseFaultRules,
  SANDBOX_ENDPOINTS,
  stageOf,
  timesOf,
} from '#node/sandbox/faults.ts'
import type { FaultRule } from '#node/sandbox/options.ts'
import { CliError } from './io.ts'

/**
 * `--fault SPEC`, a rule in one word for the command line: `KIND[:PART]...`, where a PART is
 * `before` or `after` (the stage) or one of `endpoint=skus|apps|sku-update`, `times=N|forever`,
 * `delay=MS`, `retry-after=SECONDS`, `rate=FRACTION`. For example
 * `slow-response:after:delay=5000:times=3`.
 */
export function parseFaultSpec(spec: string): FaultRule {
  const fail = (why: string) => new CliError(`Bad --fault "${spec}": ${why}`, 'sandbox')
  const [kind = '', ...parts] = spec.trim().split(':')
  if (!(FAULT_KINDS as string[]).includes(kind)) {
    throw fail(`unknown fault "${kind}"; the faults are ${FAULT_KINDS.join(', ')}`)
  }
  const rule: Record<string, unknown> = { kind }
  const set = (field: string, value: unknown, words: string) => {
    if (field in rule) throw fail(`${words} is given twice`)
    rule[field] = value
  }
  const whole = (key: string, value: string) => {
    if (!/^\d+$/.test(value)) throw fail(`${key} must be a whole number, not "${value}"`)
    return Number(value)
  }
  for (const part of parts) {
    if (part === 'before' || part === 'after') {
      set('stage', part, 'the stage')
      continue
    }
    const equals = part.indexOf('=')
    if (equals < 0) throw fail(part ? `"${part}" is neither before, after nor KEY=VALUE` : 'an empty part')
    const key = part.slice(0, equals)
    const value = part.slice(equals + 1)
    switch (key) {
      case 'stage':
        if (value !== 'before' && value !== 'after') throw fail(`stage is before or after, not "${value}"`)
        set('stage', value, 'the stage')
        break
      case 'endpoint':
        if (!(SANDBOX_ENDPOINTS as string[]).includes(value)) {
          const endpoints = `${SANDBOX_ENDPOINTS.slice(0, -1).join(', ')} or ${SANDBOX_ENDPOINTS.at(-1)}`
          throw fail(`endpoint is ${endpoints}, not "${value}"`)
        }
        set('endpoint', value, 'endpoint')
        break
      case 'times':
        set('times', value === 'forever' ? null : whole(key, value), 'times')
        break
      case 'delay':
        set('delayMs', whole(key, value), 'delay')
        break
      case 'retry-after':
        set('retryAfterSeconds', whole(key, value), 'retry-after')
        break
      case 'rate':
        if (!/^(0|1)?(\.\d+)?$/.test(value) || value === '' || value === '.')
          throw fail(`rate must be a number above 0 and at most 1, not "${value}"`)
        set('rate', Number(value), 'rate')
        break
      default:
        throw fail(
          `unknown setting "${key}"; the settings are stage, endpoint, times, delay, retry-after and rate`,
        )
    }
  }
  try {
    return parseFaultRules(rule)[0] as FaultRule
  } catch (error) {
    if (!(error instanceof FaultRuleError)) throw error
    const problem = error.problems[0]
    throw fail(problem ? `${FIELD_WORDS[problem.path] ?? problem.path}: ${problem.message}` : error.message)
  }
}

/** The rule's field names in the spec's words, for the range errors only the shared check finds. */
const FIELD_WORDS: Record<string, string> = {
  delayMs: 'delay',
  retryAfterSeconds: 'retry-after',
  times: 'times',
  rate: 'rate',
}

/** A rule in the words `--fault` takes, every setting spelled out: what the sandbox's banner prints. */
export function faultSpecOf(rule: FaultRule): string {
  const times = timesOf(rule)
  const parts: string[] = [rule.kind, stageOf(rule)]
  if (rule.endpoint) parts.push(`endpoint=${rule.endpoint}`)
  parts.push(`times=${times === null ? 'forever' : times}`)
  if (rule.kind === 'latency' || rule.kind === 'slow-response') parts.push(`delay=${delayOf(rule)}`)
  if (rule.retryAfterSeconds !== undefined) parts.push(`retry-after=${rule.retryAfterSeconds}`)
  if (rule.rate !== undefined) parts.push(`rate=${rule.rate}`)
  return parts.join(':')
}
