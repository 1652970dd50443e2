import type { Channel } from '#shared/ipc-channels.ts'
import { invokeArguments } from '#shared/ipc-arguments.ts'
import type { z } from '#shared/schema/zod.ts'
import type { Handlers } from './handlers/types.ts'

/** Calls the handler of `channel` with `args`, once they are known to fit the contract. */
export type Dispatch = (channel: string, args: unknown[]) => Promise<unknown>

function isChannel(channel: string): channel is Channel {
  return Object.hasOwn(invokeArguments, channel)
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const [index, ...rest] = issue.path
  const where =
    typeof index === 'number' ? [`argument ${index + 1}`, ...rest.map(String)].join('.') : 'arguments'
  // Zod's messages name what was expected, never the value received (which may be a secret).
  return `${where}: ${issue.message}`
}

export function createDispatcher(handlers: Handlers): Dispatch {
  return async (channel, args) => {
    if (!isChannel(channel)) throw new Error(`IPC: unknown channel "${channel}"`)
    const parsed = invokeArguments[channel].safeParse(args)
    if (!parsed.success) {
      throw new Error(
        `IPC ${channel}: invalid arguments: ${parsed.error.issues.map(describeIssue).join('; ')}`,
      )
    }
    const handler = handlers[channel] as (...args: unknown[]) => Promise<unknown>
    return handler(...parsed.data)
  }
}
