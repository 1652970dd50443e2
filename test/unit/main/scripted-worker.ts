import { parentPort, threadId } from 'node:worker_threads'

// A worker for worker-thread.test.ts that does what each job says, and names the thread it ran on.

/** `done` answers at once; `ask` asks main something first; `wait` never answers; the rest misbehave. */
export type Act = 'done' | 'ask' | 'wait' | 'hang' | 'throw' | 'exit'

export type ToWorker =
  { type: 'job'; job: number; act: Act } | { type: 'answer'; job: number; answer: string }

export type FromWorker =
  | { type: 'ready' }
  | { type: 'done'; job: number; thread: number; answer?: string }
  | { type: 'ask'; job: number }

const port = parentPort!
const send = (message: FromWorker) => port.postMessage(message)

port.on('message', (message: ToWorker) => {
  const { job } = message
  if (message.type === 'answer') return send({ type: 'done', job, thread: threadId, answer: message.answer })
  switch (message.act) {
    case 'done':
      return send({ type: 'done', job, thread: threadId })
    case 'ask':
      return send({ type: 'ask', job })
    case 'wait':
      return
    case 'hang':
      for (;;);
    case 'throw':
      throw new Error('a fault of the kind a bug would be')
    case 'exit':
      process.exit(3)
  }
})
send({ type: 'ready' })
