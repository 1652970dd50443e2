import type { Channel } from '#shared/ipc-channels.ts'
import { invokeArguments } from '#shared/ipc-arguments.ts'
import type { z } from '#shared/schema/zod.ts'
import type { AppLog } from '#node/app-log.ts'
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

/**
 * Checks each call against the contract and hands it to its handler. With a log, every call that
 * fails is written there: refused arguments (said without the values, which may be a secret) and
 * what a handler threw, with its stack.
 */
export function createDispatcher(handlers: Handlers, log?: Pick<AppLog, 'warn' | 'error'>): Dispatch {
  return async (channel, args) => {
    if (!isChannel(channel)) {
      const error = new Error(`IPC: unknown channel "${channel.slice(0, 100)}"`)
      log?.warn(error.message)
      throw error
    }
    const parsed = invokeArguments[channel].safeParse(args)
    if (!parsed.success) {
      const error = new Error(
        `IPC ${channel}: invalid arguments: ${parsed.error.issues.map(describeIssue).join('; ')}`,
      )
      log?.warn(error.message)
      throw error
    }
    const handler = handlers[channel] as (...args: unknown[]) => Promise<unknown>
    try {
      return await handler(...parsed.data)
    } catch (error) {
      log?.error(`IPC ${channel} failed`, error)
      throw error
    }
  }
}
