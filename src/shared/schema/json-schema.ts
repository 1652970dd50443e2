import { z } from './zod.ts'
import { fieldRegistry } from './field.ts'
import { skuSchema, bulkUploadRequestSchema } from './sku.ts'
import { appCreateRequestSchema, appCreateResponseSchema } from './app.ts'

/** Catalogue keys that only this app reads; JSON Schema gets the standard ones (title, description, examples). */
const LOCAL_KEYS = ['kind', 'expected', 'allowEmpty', 'step', 'showsImage'] as const

function toJsonSchema(schema: z.ZodType) {
  return z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    metadata: fieldRegistry,
    override: ({ jsonSchema }) => {
      for (const key of LOCAL_KEYS) delete (jsonSchema as Record<string, unknown>)[key]
    },
  })
}

/** JSON Schemas of the contract's documents, for editors and other tools. */
export function contractJsonSchemas() {
  return {
    sku: toJsonSchema(skuSchema()),
    'bulk-upload-request': toJsonSchema(bulkUploadRequestSchema()),
    'app-create-request': toJsonSchema(appCreateRequestSchema()),
    'app-create-response': toJsonSchema(appCreateResponseSchema()),
  }
}
