/**
 * What a file may hold before the importer refuses it. The contract has well under a hundred
 * columns, so a file with thousands is a wrong file (or a wrong delimiter), not a catalogue; a cell
 * of megabytes is pasted binary or a quote that is never closed. Refusing early keeps the worker's
 * memory bounded and the message clear.
 */
export const MAX_COLUMNS = 2000

/** Characters in one cell (about 1 MB of text). */
export const MAX_CELL_CHARS = 1024 * 1024

/** How much text may pile up without a complete row before the reader gives up (an unclosed quote). */
export const MAX_PENDING_CHARS = 4 * MAX_CELL_CHARS

/**
 * Bytes an XLSX workbook may unpack to (every entry of its zip, the sheet's XML above all): it is
 * read whole, once unpacked (read-excel-file), at several times this in memory. Workbooks unpack
 * to about ten times their size: the CLI's largest, 8 MB (`MAX_XLSX_BYTES`), to about 80 MB; 40,000
 * rows of 60 columns of distinct text (a 15 MB file) to 146 MB. A sheet of repeated XML unpacks a
 * thousand times over and is refused at this limit, whatever its own size.
 */
export const MAX_XLSX_UNPACKED_BYTES = 100 * 1024 * 1024
