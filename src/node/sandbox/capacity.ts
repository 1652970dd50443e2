import { z } from '#shared/schema/zod.ts'
import { formatPath, type Problem } from '#shared/validation/problem.ts'
import { MAX_DELAY_MS } from './faults.ts'
import type { CapacityModel } from './options.ts'
import { errorReply, type Reply } from './reply.ts'

/** The most requests a capacity model may serve at once: far above anything the app sends. */
export const MAX_CAPACITY_SLOTS = 1_000

const capacitySchema = z.strictObject({
  latencyMs: z.number().int().min(0).max(MAX_DELAY_MS),
  slots: z.number().int().min(1).max(MAX_CAPACITY_SLOTS),
  retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
})

/** A capacity model that came from outside (the control endpoint, the CLI) and does not hold. */
export class CapacityModelError extends Error {
  readonly problems: Problem[]

  constructor(problems: Problem[]) {
    super(
      `Invalid capacity model: ${problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ')}`,
    )
    this.name = 'CapacityModelError'
    this.problems = problems
  }
}

/** Checks a capacity model; throws `CapacityModelError`. */
export function parseCapacityModel(value: unknown): CapacityModel {
  const parsed = capacitySchema.safeParse(value)
  if (parsed.success) return parsed.data
  throw new CapacityModelError(
    parsed.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
  )
}

/** `slots=4:latency=2800:retry-after=1`: the CLI's spelling, also used in the banner and the request log. */
export function describeCapacity(model: CapacityModel): string {
  return `slots=${model.slots}:latency=${model.latencyMs}:retry-after=${model.retryAfterSeconds ?? 1}`
}

/**
 * The service's capacity, as a load test sees it: each request it serves takes `latencyMs`, it
 * serves `slots` at once, and one beyond them is answered 429 with `Retry-After` at once, without
 * being processed. Off (every request served at once, without delay) until a model is set.
 */
export class CapacityGate {
  #model: CapacityModel | undefined
  #inUse = 0

  constructor(model?: CapacityModel) {
    this.set(model)
  }

  /** Replaces the model (undefined turns it off); requests being served keep their slots. */
  set(model: CapacityModel | undefined): void {
    this.#model = model === undefined ? undefined : parseCapacityModel(model)
  }

  get model(): CapacityModel | undefined {
    return this.#model && { ...this.#model }
  }

  /** Requests being served now under the model. */
  get inUse(): number {
    return this.#inUse
  }

  /**
   * A slot for one request: `undefined` when there is no model (nothing to wait or release),
   * `'full'` when every slot is taken, else the time to serve it and the slot's release.
   */
  enter(): undefined | 'full' | { latencyMs: number; release: () => void } {
    const model = this.#model
    if (!model) return undefined
    if (this.#inUse >= model.slots) return 'full'
    this.#inUse += 1
    let released = false
    return {
      latencyMs: model.latencyMs,
      release: () => {
        if (released) return
        released = true
        this.#inUse -= 1
      },
    }
  }

  /** The answer to a request beyond the slots. */
  fullReply(): Reply {
    const model = this.#model
    const slots = model?.slots ?? 0
    return errorReply(429, `Too many requests: the service serves ${slots} at once (sandbox capacity)`, {
      'retry-after': String(model?.retryAfterSeconds ?? 1),
    })
  }
}
