import { isRecord } from '#shared/is-record.ts'
import type { Problem } from '#shared/validation/problem.ts'
import { validateSku } from '#shared/validation/validate.ts'
import type { Processed } from './processed.ts'
import type { ReceivedStore } from './received-store.ts'
import { errorReply, invalidReply, jsonReply, type Reply } from './reply.ts'

/**
 * PUT skus/{skuId} with a parsed body: the partial update of the platform's docs ("only the
 * provided fields are modified", merged as `mergeSku` says) of a SKU a bulk upload created here.
 * 404 with a JSON `{message}` for an id no SKU has; 400 with `{message, errors}` for a body that is
 * not an object, one naming `_id`, a category change without an `arEffect` (the docs: changing the
 * category needs an arEffect that fits it), or a SKU the update would leave invalid by the same
 * rules as a created one; nothing is stored then. 200 `{message: 'Updated', sku}` with the SKU as
 * it now stands and its `_id` (the live service's answer body is not documented: the sandbox's choice).
 */
export async function updateSku(
  skuId: string,
  body: unknown,
  settings: { store: ReceivedStore; now: () => Date },
): Promise<Processed> {
  const notFound: Processed = {
    reply: errorReply(404, `SKU ${skuId} not found`),
    stored: false,
    skuCount: null,
  }
  if (!settings.store.hasSku(skuId)) return notFound
  if (!isRecord(body)) {
    const problem = { path: '', message: 'The body must be an object with the fields to change' }
    return {
      reply: invalidReply('The body is not a SKU update ({"field": value, ...})', [problem]),
      stored: false,
      skuCount: null,
    }
  }
  const result = await settings.store.updateSku(
    skuId,
    body,
    settings.now().toISOString(),
    (current, merged) => refusal(body, current, merged),
  )
  // Cleared away between the look and the update.
  if ('notFound' in result) return notFound
  if ('refused' in result) return { reply: result.refused, stored: false, skuCount: null }
  const sku = { ...(result.sku as Record<string, unknown>), _id: skuId }
  return { reply: jsonReply(200, { message: 'Updated', sku }), stored: true, skuCount: null }
}

/** Why the update cannot be made, or undefined when it can. */
function refusal(
  body: Record<string, unknown>,
  current: unknown,
  merged: Record<string, unknown>,
): Reply | undefined {
  if (Object.hasOwn(body, '_id')) {
    const problem = { path: '_id', message: 'The SKU’s id is in the address and cannot be changed' }
    return invalidReply('The update names _id; nothing was changed', [problem])
  }
  const before = isRecord(current) ? current.category : undefined
  if (
    Object.hasOwn(body, 'category') &&
    JSON.stringify(body.category) !== JSON.stringify(before) &&
    !Object.hasOwn(body, 'arEffect')
  ) {
    const problem: Problem = {
      path: 'arEffect',
      message: `The category changes from ${JSON.stringify(before) ?? 'none'} to ${JSON.stringify(body.category)}: send an arEffect that fits the new category with it`,
    }
    return invalidReply('Changing the category needs an arEffect that fits it; nothing was changed', [
      problem,
    ])
  }
  const { errors } = validateSku(merged)
  if (errors.length > 0)
    return invalidReply('The SKU would be invalid after this update; nothing was changed', errors)
  return undefined
}
