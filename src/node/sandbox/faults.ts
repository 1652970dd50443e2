import { z } from '#shared/schema/zod.ts'
import { formatPath, type Problem } from '#shared/validation/problem.ts'
import type { FaultKind, FaultRule, SandboxEndpoint } from './options.ts'
import { errorReply, type Reply } from './reply.ts'

/** Every kind once; a Record so a kind added to options.ts without a line here fails to compile. */
const KINDS: Record<FaultKind, true> = {
  latency: true,
  'rate-limit': true,
  'server-error': true,
  'bad-gateway': true,
  unavailable: true,
  'gateway-timeout': true,
  reset: true,
  'html-error': true,
  'slow-response': true,
}
export const FAULT_KINDS = Object.keys(KINDS) as FaultKind[]
export const SANDBOX_ENDPOINTS: readonly SandboxEndpoint[] = ['skus', 'apps', 'sku-update']

const DEFAULT_DELAY_MS: Partial<Record<FaultKind, number>> = { latency: 1_000, 'slow-response': 30_000 }
/** Longer waits would only outlast every client timeout and the sandbox's own request timeout. */
export const MAX_DELAY_MS = 600_000

const faultRuleSchema = z.strictObject({
  kind: z.enum(FAULT_KINDS as [FaultKind, ...FaultKind[]]),
  endpoint: z.enum(SANDBOX_ENDPOINTS as [SandboxEndpoint, ...SandboxEndpoint[]]).optional(),
  stage: z.enum(['before', 'after']).optional(),
  times: z.number().int().min(1).nullable().optional(),
  delayMs: z.number().int().min(0).max(MAX_DELAY_MS).optional(),
  retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
  rate: z.number().gt(0).max(1).optional(),
})

/** Rules that came from outside (the control endpoint, the CLI) were not checked by the compiler. */
export class FaultRuleError extends Error {
  readonly problems: Problem[]

  constructor(problems: Problem[]) {
    super(
      `Invalid fault rules: ${problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ')}`,
    )
    this.name = 'FaultRuleError'
    this.problems = problems
  }
}

/** Checks a list of rules (or one rule) and returns them as rules; throws `FaultRuleError`. */
export function parseFaultRules(value: unknown): FaultRule[] {
  const list = Array.isArray(value) ? value : [value]
  const parsed = z.array(faultRuleSchema).safeParse(list)
  if (parsed.success) return parsed.data
  throw new FaultRuleError(
    parsed.error.issues.map((issue) => ({
      path: formatPath(Array.isArray(value) ? issue.path : issue.path.slice(1)),
      message: issue.message,
    })),
  )
}

/** 'latency' always happens before processing; every other kind defaults to 'before'. */
export function stageOf(rule: FaultRule): 'before' | 'after' {
  return rule.kind === 'latency' ? 'before' : (rule.stage ?? 'before')
}

export function delayOf(rule: FaultRule): number {
  return rule.delayMs ?? DEFAULT_DELAY_MS[rule.kind] ?? 0
}

/** How many requests a rule answers: once unless told, forever when it has a rate; null is forever. */
export function timesOf(rule: FaultRule): number | null {
  return rule.times === undefined ? (rule.rate === undefined ? 1 : null) : rule.times
}

/** `reset:after (skus)`-style words for the request log and the CLI's banner. */
export function describeFault(rule: FaultRule): string {
  const parts: string[] = [rule.kind, stageOf(rule)]
  if (rule.kind === 'latency' || rule.kind === 'slow-response') parts.push(`delay=${delayOf(rule)}`)
  if (rule.retryAfterSeconds !== undefined) parts.push(`retry-after=${rule.retryAfterSeconds}`)
  if (rule.rate !== undefined) parts.push(`rate=${rule.rate}`)
  return parts.join(':') + (rule.endpoint ? ` (${rule.endpoint})` : '')
}

const HTML_ERROR_PAGE = `<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><h1>502 Bad Gateway</h1><p>The upstream server did not answer. (Catalog Desk sandbox fault)</p></body>
</html>
`

/** The answer of a fault that answers with a status; undefined for the kinds that wait or reset. */
export function faultReply(rule: FaultRule): Reply | undefined {
  const note = ' (sandbox fault)'
  switch (rule.kind) {
    case 'rate-limit':
      return errorReply(429, 'Too many requests' + note, {
        'retry-after': String(rule.retryAfterSeconds ?? 1),
      })
    case 'server-error':
      return errorReply(500, 'Internal server error' + note)
    case 'bad-gateway':
      return errorReply(502, 'Bad gateway' + note)
    case 'unavailable':
      return errorReply(
        503,
        'Service unavailable' + note,
        rule.retryAfterSeconds === undefined ? undefined : { 'retry-after': String(rule.retryAfterSeconds) },
      )
    case 'gateway-timeout':
      return errorReply(504, 'Gateway timeout' + note)
    case 'html-error':
      return { status: 502, html: HTML_ERROR_PAGE }
    default:
      return undefined
  }
}

export interface ActiveFault {
  rule: FaultRule
  /** How many more matching requests it applies to; null for every one. */
  remaining: number | null
}

/**
 * A small seeded generator (mulberry32): the same seed gives the same draws, so a soak run against
 * the sandbox meets the same faults each time. Not for anything but test traffic.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/**
 * The active rules, in the order they were added: the first that matches a request is used up on
 * it. A rule with a `rate` matches only when its draw says so; otherwise the next rule is tried.
 */
export class FaultBook {
  #active: ActiveFault[] = []
  readonly #random: () => number

  constructor(random: () => number = seededRandom(1)) {
    this.#random = random
  }

  add(rules: FaultRule[]): void {
    for (const rule of parseFaultRules(rules)) {
      this.#active.push({ rule, remaining: timesOf(rule) })
    }
  }

  clear(): void {
    this.#active = []
  }

  list(): ActiveFault[] {
    return this.#active.map((fault) => ({ rule: { ...fault.rule }, remaining: fault.remaining }))
  }

  /** The rule for one request to `endpoint`, counted as used; undefined when none matches. */
  take(endpoint: SandboxEndpoint): FaultRule | undefined {
    const index = this.#active.findIndex(
      (fault) =>
        (!fault.rule.endpoint || fault.rule.endpoint === endpoint) &&
        (fault.rule.rate === undefined || this.#random() < fault.rule.rate),
    )
    const found = this.#active[index]
    if (!found) return undefined
    if (found.remaining !== null) {
      found.remaining -= 1
      if (found.remaining <= 0) this.#active.splice(index, 1)
    }
    return found.rule
  }
}
