import { validateAppRequest } from '#shared/validation/validate.ts'
import { createdApp } from './app-response.ts'
import type { Processed } from './processed.ts'
import type { ReceivedStore } from './received-store.ts'
import { invalidReply, jsonReply } from './reply.ts'

/** POST apps with a parsed body: 201 `{app}` in the contract's response shape, or 400 with the problems. */
export async function createApp(
  body: unknown,
  settings: { emptyNestedObjects: boolean; store: ReceivedStore; now: () => Date },
): Promise<Processed> {
  const { errors } = validateAppRequest(body)
  if (errors.length > 0) {
    return {
      reply: invalidReply('The app request is invalid; no app was created', errors),
      stored: false,
      skuCount: null,
    }
  }
  const now = settings.now()
  const app = createdApp(body as Record<string, unknown>, {
    emptyNestedObjects: settings.emptyNestedObjects,
    now,
  })
  await settings.store.addApp({
    id: app._id,
    receivedAt: now.toISOString(),
    request: structuredClone(body),
    app,
  })
  return { reply: jsonReply(201, { app }), stored: true, skuCount: null }
}
