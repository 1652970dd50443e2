import { z } from '#shared/schema/zod.ts'
import { formatPath, type Problem } from '#shared/validation/problem.ts'

/** What can change while the sandbox runs (`/__sandbox/settings`); each is a `SandboxOptions` field. */
export interface SandboxRuntimeSettings {
  /** See `SandboxOptions.answerIds`. */
  answerIds: boolean
}

const changeSchema = z.strictObject({ answerIds: z.boolean().optional() })

/** A change of settings that came from outside (the control endpoint) and does not hold. */
export class SettingsChangeError extends Error {
  readonly problems: Problem[]

  constructor(problems: Problem[]) {
    super(
      `Invalid settings: ${problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ')}`,
    )
    this.name = 'SettingsChangeError'
    this.problems = problems
  }
}

/** A copy of the settings that change while the sandbox runs. */
export function runtimeSettingsOf(settings: SandboxRuntimeSettings): SandboxRuntimeSettings {
  return { answerIds: settings.answerIds }
}

/**
 * Applies a change that came from outside (only the settings it names change), all of it or, when
 * any part is invalid, none of it: throws `SettingsChangeError`.
 */
export function changeSettings(settings: SandboxRuntimeSettings, change: unknown): void {
  const parsed = changeSchema.safeParse(change)
  if (!parsed.success) {
    throw new SettingsChangeError(
      parsed.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
    )
  }
  if (parsed.data.answerIds !== undefined) settings.answerIds = parsed.data.answerIds
}
