import { randomBytes } from 'node:crypto'
import { closeSync, linkSync, openSync, renameSync, rmSync } from 'node:fs'
import { access } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { BufferedFile } from './buffered-file.ts'
import { CliError } from './io.ts'

/**
 * The file `convert` writes, written as it goes into a temporary file beside it and put in its
 * place only once whole: a file that fails halfway (unreadable input, an app request, a full disk)
 * leaves nothing behind, and an existing file is never overwritten without `--force`, not even one
 * created while the input was read (the temporary file is linked in its place, which fails if a
 * file is there). The temporary file is a new file under a random name: a link planted in the
 * folder (at a name that could be guessed, as `.OUT.PID.partial` once was) is never written through.
 */
export class OutputFile {
  private readonly path: string
  private readonly name: string
  private readonly temporary: string
  private out: BufferedFile | undefined

  /** Opens the temporary file for OUT (`path`, named as the person typed it in messages). */
  constructor(path: string, name: string) {
    this.path = path
    this.name = name
    this.temporary = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.partial`)
    // 'wx': created here or not at all, never an existing file or a link's target. The mode is the
    // umask's, as for any file the person writes: OUT gets it when renamed into place.
    this.out = this.attempt(() => new BufferedFile(openSync(this.temporary, 'wx')))
  }

  /** Refuses at once, before a long read, to write over an existing file without `--force`. */
  static async refuseExisting(path: string, name: string): Promise<void> {
    const exists = await access(path).then(
      () => true,
      () => false,
    )
    if (exists) throw new CliError(`${name} exists; add --force to overwrite it.`, 'convert')
  }

  write(text: string): void {
    this.attempt(() => this.out!.write(text))
  }

  writeBytes(bytes: Uint8Array): void {
    this.attempt(() => this.out!.writeBytes(bytes))
  }

  /** Puts the file in its place: over an existing one only with `force`. */
  commit(force: boolean): void {
    const out = this.out!
    this.attempt(() => {
      out.flush()
      closeSync(out.fd)
    })
    this.out = undefined
    try {
      if (force) renameSync(this.temporary, this.path)
      else linkSync(this.temporary, this.path)
    } catch (error) {
      if ((error as { code?: string }).code === 'EEXIST')
        throw new CliError(`${this.name} exists; add --force to overwrite it.`, 'convert')
      throw new CliError(`Cannot write ${this.name}: ${(error as Error).message}`)
    } finally {
      rmSync(this.temporary, { force: true })
    }
  }

  /** Removes the temporary file (after `commit`, there is none left). */
  discard(): void {
    if (this.out) closeSync(this.out.fd)
    this.out = undefined
    rmSync(this.temporary, { force: true })
  }

  private attempt<T>(write: () => T): T {
    try {
      return write()
    } catch (error) {
      throw new CliError(`Cannot write ${this.name}: ${(error as Error).message}`)
    }
  }
}
