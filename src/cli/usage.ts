/** The help texts. Kept together so the commands and the exit statuses are described in one voice. */

export const MAIN_USAGE = `Usage: catalog-desk <command> [options]

Checks SKUs and skin-analysis app configurations against the service contract, offline.

Commands:
  validate FILE [--json]   Check a JSON file of SKUs, a bulk upload request or an app creation request
  schema [--out DIR]       Print or write the JSON Schemas of the contract's documents

Options:
  -h, --help               Show this help; "catalog-desk <command> --help" shows a command's
  --version                Show the version

Exit status: 0 success, 1 the document is invalid, 2 bad usage or a file that cannot be read.
`

export const VALIDATE_USAGE = `Usage: catalog-desk validate FILE [--json]

Checks FILE against the service contract. FILE is JSON holding one SKU, a list of SKUs, a bulk
upload request ({"skus": [...]}) or an app creation request; the summary says which was read.

Each problem is printed as "path: message". When FILE holds a list, "[N]" before the path is the
item's position, counting from 0. A value of the wrong kind is an error. A missing field is a
warning, since the contract marks no field as required.

Options:
  --json       Print one JSON object instead:
               {kind, items, valid, invalid, errors: [{index, path, message}], warnings: [...]}
               (index is null for a problem with the document itself)
  -h, --help   Show this help

Exit status: 0 valid (warnings allowed), 1 invalid, 2 bad usage or FILE cannot be read or parsed
(the reason goes to standard error, and --json prints nothing).
`

export const SCHEMA_USAGE = `Usage: catalog-desk schema [--out DIR]

Prints the JSON Schemas of the contract's documents (sku, bulk-upload-request, app-create-request,
app-create-response) as one JSON object keyed by name. With --out, writes each to
DIR/<name>.schema.json instead, for editors that check JSON as you type.

Options:
  --out DIR    Write one file per document into DIR (created if missing)
  -h, --help   Show this help
`

export const COMMAND_USAGE: Record<string, string> = {
  validate: VALIDATE_USAGE,
  schema: SCHEMA_USAGE,
}
