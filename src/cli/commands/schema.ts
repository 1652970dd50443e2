import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { contractJsonSchemas } from '#shared/schema/json-schema.ts'
import { parseCommandArgs } from '../args.ts'
import { CliError, EXIT_OK, type CliIo } from '../io.ts'
import { SCHEMA_USAGE } from '../usage.ts'

/** `catalog-desk schema [--out DIR]`: the contract's JSON Schemas, for editors and other tools. */
export async function schemaCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('schema', args, {
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(SCHEMA_USAGE)
    return EXIT_OK
  }
  if (positionals.length > 0)
    throw new CliError(`schema takes no FILE; given: ${positionals.join(' ')}`, 'schema')

  const schemas = contractJsonSchemas()
  const out = values.out
  if (out === undefined) {
    io.stdout.write(JSON.stringify(schemas, null, 2) + '\n')
    return EXIT_OK
  }
  if (out === '') throw new CliError('--out needs a folder name.', 'schema')
  try {
    await mkdir(resolve(io.cwd, out), { recursive: true })
    for (const [name, schema] of Object.entries(schemas)) {
      const file = join(out, `${name}.schema.json`)
      await writeFile(resolve(io.cwd, file), JSON.stringify(schema, null, 2) + '\n')
      io.stdout.write(`wrote ${file}\n`)
    }
  } catch (error) {
    throw new CliError(`Cannot write the schemas to ${out}: ${(error as Error).message}`)
  }
  return EXIT_OK
}
