import { resolve } from 'node:path'
import { CONTROL_ENDPOINTS, CONTROL_PREFIX } from '#node/sandbox/control.ts'
import type { CapacityModel, FaultRule, SandboxTokenEncoding } from '#node/sandbox/options.ts'
import { DEFAULT_MAX_BATCH, startSandbox, type Sandbox } from '#node/sandbox/server.ts'
import { BULK_UPLOAD_PATH, CREATE_APP_PATH, SKU_UPDATE_PATH } from '#shared/service/endpoints.ts'
import { parseCommandArgs } from '../args.ts'
import { describeCapacity } from '#node/sandbox/capacity.ts'
import { parseCapacitySpec } from '../capacity-spec.ts'
import { faultSpecOf, parseFaultSpec } from '../fault-spec.ts'
import { SANDBOX_TOKEN } from '#shared/sandbox-token.ts'
import { CliError, EXIT_OK, type CliIo } from '../io.ts'
import { SANDBOX_USAGE } from '../usage.ts'

export const DEFAULT_SANDBOX_PORT = 4010
const TOKEN_ENCODINGS: readonly SandboxTokenEncoding[] = ['raw', 'base64', 'either']

const ENCODING_WORDS: Record<SandboxTokenEncoding, string> = {
  raw: 'as it is',
  base64: 'base64-encoded',
  either: 'as it is or base64-encoded',
}

function wholeNumber(option: string, value: string, min: number, max: number): number {
  const number = /^\d+$/.test(value) ? Number(value) : NaN
  if (!(number >= min && number <= max)) {
    throw new CliError(`--${option} must be a whole number from ${min} to ${max}, not "${value}".`, 'sandbox')
  }
  return number
}

/** Resolves when the run should end: the caller's signal, or else Ctrl-C or a service manager's SIGTERM. */
function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((done) => {
    if (signal) {
      if (signal.aborted) done()
      else signal.addEventListener('abort', () => done(), { once: true })
      return
    }
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      done()
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}

function banner(
  sandbox: Sandbox,
  details: {
    token: string
    encoding: SandboxTokenEncoding
    maxBatch: number
    store?: string
    faults: FaultRule[]
    capacity?: CapacityModel
  },
): string {
  const token =
    details.token === SANDBOX_TOKEN ? `"${SANDBOX_TOKEN}" (the default)` : 'the one given with --token'
  const lines = [
    `Sandbox listening on ${sandbox.url}`,
    `Token: ${token}, accepted ${ENCODING_WORDS[details.encoding]} after "Authorization: Bearer "`,
    `Largest batch: ${details.maxBatch} SKUs`,
    sandbox.settings().answerIds
      ? "Bulk uploads are answered with each SKU's _id and barcode (--no-ids: without them)"
      : 'Bulk uploads are answered without ids: {message, count} (--no-ids)',
    `Received SKUs and apps: ${details.store ? `kept in ${details.store}` : 'kept in memory'}`,
    '',
    'Operations:',
    `  POST ${sandbox.url}${BULK_UPLOAD_PATH}`,
    `  POST ${sandbox.url}${CREATE_APP_PATH}`,
    `  PUT  ${sandbox.url}${SKU_UPDATE_PATH}`,
    '',
    'Control (this computer only, no token):',
    ...CONTROL_ENDPOINTS.map(([method, name, what]) => {
      const address = `${sandbox.url}${CONTROL_PREFIX}${name}`.padEnd(sandbox.url.length + 29)
      return `  ${method.padEnd(6)} ${address} ${what}`
    }),
    '',
    `Faults: ${details.faults.length > 0 ? details.faults.map(faultSpecOf).join(', ') : 'none'}`,
    ...(details.capacity
      ? [
          `Capacity: ${details.capacity.slots} requests at once, ${details.capacity.latencyMs} ms each; 429 beyond them (${describeCapacity(details.capacity)})`,
        ]
      : []),
    ...(sandbox.rejectedBarcodes().length > 0
      ? [`Refused barcodes (422 although valid): ${sandbox.rejectedBarcodes().join(', ')}`]
      : []),
    'Stop with Ctrl-C.',
  ]
  return lines.join('\n') + '\n'
}

/**
 * `catalog-desk sandbox`: a stand-in for the service on this computer, until Ctrl-C (or until
 * `io.signal` fires). Exit 0 after a clean stop; 2 for bad options, a taken port or a bad store file.
 */
export async function sandboxCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('sandbox', args, {
    port: { type: 'string' },
    token: { type: 'string' },
    'token-encoding': { type: 'string' },
    'max-batch': { type: 'string' },
    'no-ids': { type: 'boolean' },
    store: { type: 'string' },
    'full-app-response': { type: 'boolean' },
    fault: { type: 'string', multiple: true },
    'fault-seed': { type: 'string' },
    capacity: { type: 'string' },
    'reject-barcode': { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(SANDBOX_USAGE)
    return EXIT_OK
  }
  if (positionals.length > 0)
    throw new CliError(`sandbox takes no FILE; given: ${positionals.join(' ')}`, 'sandbox')

  const port = values.port === undefined ? DEFAULT_SANDBOX_PORT : wholeNumber('port', values.port, 0, 65_535)
  const token = values.token ?? SANDBOX_TOKEN
  if (token === '') throw new CliError('--token cannot be empty.', 'sandbox')
  const encoding = (values['token-encoding'] ?? 'raw') as SandboxTokenEncoding
  if (!TOKEN_ENCODINGS.includes(encoding)) {
    throw new CliError(`--token-encoding is raw, base64 or either, not "${encoding}".`, 'sandbox')
  }
  const maxBatch =
    values['max-batch'] === undefined
      ? DEFAULT_MAX_BATCH
      : wholeNumber('max-batch', values['max-batch'], 1, 100_000)
  if (values.store === '') throw new CliError('--store needs a file name.', 'sandbox')
  const faults = (values.fault ?? []).map(parseFaultSpec)
  const faultSeed =
    values['fault-seed'] === undefined
      ? undefined
      : wholeNumber('fault-seed', values['fault-seed'], 0, 2 ** 32 - 1)
  const capacity = values.capacity === undefined ? undefined : parseCapacitySpec(values.capacity)
  const rejectBarcodes = values['reject-barcode'] ?? []
  if (rejectBarcodes.includes('')) throw new CliError('--reject-barcode needs a barcode.', 'sandbox')

  let sandbox: Sandbox
  try {
    sandbox = await startSandbox({
      port,
      token,
      tokenEncoding: encoding,
      maxBatch,
      answerIds: !values['no-ids'],
      emptyNestedObjects: !values['full-app-response'],
      faults,
      rejectBarcodes,
      ...(faultSeed === undefined ? {} : { faultSeed }),
      ...(capacity === undefined ? {} : { capacity }),
      ...(values.store === undefined ? {} : { storeFile: resolve(io.cwd, values.store) }),
    })
  } catch (error) {
    if ((error as { code?: string }).code === 'EADDRINUSE') {
      throw new CliError(`Port ${port} is in use: choose another with --port (0 picks a free one).`)
    }
    throw new CliError(`Cannot start the sandbox: ${(error as Error).message}`)
  }
  io.stdout.write(banner(sandbox, { token, encoding, maxBatch, store: values.store, faults, capacity }))
  await untilStopped(io.signal)
  await sandbox.close()
  io.stdout.write('Sandbox stopped.\n')
  return EXIT_OK
}
