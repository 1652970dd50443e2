/** A file the importer refuses, with a message that says why and what to do instead. */
export class UnreadableFile extends Error {
  override name = 'UnreadableFile'
}
