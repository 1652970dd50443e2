import { DEFAULT_BUDGETS } from '#shared/asset-checks/budgets.ts'
import { formatBytes } from '#shared/byte-size.ts'
import { DEFAULT_SENDING, PROFILE_LIMITS } from '#shared/profile.ts'
import { MAX_CACHED } from '#node/asset-checks/asset-cache.ts'
import {
  ASSET_TIMEOUT_MS,
  CONCURRENCY,
  MAX_ASSET_REDIRECTS,
  MAX_EXTERNAL_FILES,
  MODEL_DEADLINE_MS,
} from '#node/asset-checks/asset-fetch.ts'
import { DEFAULT_REQUIRED_FIELDS, REQUIRABLE_FIELDS } from '#shared/sync/send-gates.ts'
import { MAX_PRODUCT_LIST_BYTES } from '#shared/sheet/json-table.ts'
import { MAX_XLSX_UNPACKED_BYTES } from '#shared/sheet/limits.ts'
import { MAX_XLSX_BYTES } from './input-file.ts'
import { SHEET_OPTIONS_USAGE } from './sheet-options.ts'
import { MAX_XLSX_SKUS } from './sku-output.ts'

/** The help texts. Kept together so the commands and the exit statuses are described in one voice. */

const { batchSize, concurrency, timeoutSeconds } = PROFILE_LIMITS

/** Words joined by commas, in lines of at most `width` characters, each indented by `indent`. */
function wrapped(words: readonly string[], indent: number, width: number): string {
  const lines: string[] = []
  let line = ''
  for (const word of words) {
    const next = line === '' ? word : `${line}, ${word}`
    if (line !== '' && indent + next.length + 1 > width) {
      lines.push(`${line},`)
      line = word
    } else line = next
  }
  lines.push(line)
  return lines.map((text) => ' '.repeat(indent) + text).join('\n')
}

export const MAIN_USAGE = `Usage: catalog-desk <command> [options]

Checks SKUs and skin-analysis app configurations against the service contract, offline.

Commands:
  validate FILE [--json]   Check a JSON file of SKUs, a bulk upload request or an app creation
                           request, or a CSV or XLSX sheet of SKUs, and say which SKUs a push
                           would send and which it would hold back, and why
  convert IN OUT [--force] Turn SKUs from JSON, CSV or XLSX into a bulk upload request, CSV or XLSX
  schema [--out DIR]       Print or write the JSON Schemas of the contract's documents
  sandbox [options]        Run a stand-in for the service on this computer, with faults on demand
  push FILE [options]      Send SKUs (new ones created, changed ones updated) or an app creation
                           request to the service
  check-assets FILE [...]  Check the models and pictures SKUs name: reachable, valid, within budgets

PrestaShop's products file and its combinations file are read together, each combination a SKU:
  catalog-desk validate products_import.csv --combinations combinations_import.csv

Options:
  -h, --help               Show this help; "catalog-desk <command> --help" shows a command's
  -v, --version            Show the version

Exit status: 0 success, 1 the document is invalid or, for validate, a SKU would be held back
(check-assets: an asset has an error; push: an item not synced), 2 bad usage or a file that cannot
be read.
`

export const VALIDATE_USAGE = `Usage: catalog-desk validate FILE [--json] [--all] [--require FIELDS | --profile NAME]
                             [--hold-bad-check-digits] [--journal PATH] [--mapping FILE]
                             [--decimal-comma] [--show-mapping]

Checks FILE against the service contract. FILE is JSON holding one SKU, a list of SKUs, a bulk
upload request ({"skus": [...]}) or an app creation request; the summary says which was read.
FILE may also be a sheet of SKUs, one a row: CSV (.csv, .tsv; comma, semicolon, tab or | between
cells; UTF-8), XLSX (.xlsx, the first sheet) or a Google Merchant Center feed in XML (.xml, RSS 2.0
or Atom; each item a row, its elements the columns). Without one of these extensions the content
decides. CSV, XML feeds and JSON are read as they stream, whatever their size; an XLSX is read whole, up to ${MAX_XLSX_BYTES / 1024 / 1024} MB
and ${MAX_XLSX_UNPACKED_BYTES / 1024 / 1024} MB unpacked.

JSON: a problem is printed as "path: message". When FILE holds a list, "[N]" before the path is
the item's position, counting from 0.
A JSON product list that is not SKUs (a list of objects whose keys are not the contract's, or an
object holding one such list, {"products": [...]}) is read as a sheet whose headers are its JSON
paths (name, price.amount; a list of plain values is one cell, joined by ", "; a list of objects in
each product gives product_colors[].colour_name), mapped by --mapping FILE: without one it is
refused, with the paths found as a mapping to start from. The list whose fields the mapping makes
variant options ("option:Shade") spreads: one SKU per element, with its product's fields, named
"Product – Shade". Its problems name the item, its place ("at [0].product_colors[2]") and the path.
It is read whole, up to ${MAX_PRODUCT_LIST_BYTES / 1024 / 1024} MB. --mapping with a file of SKUs is refused.
Sheets: a problem is printed as 'line N, column "Header": message', N the row's line in your
spreadsheet app (the header is line 1, the first row under it line 2; a cell holding a line break
is still one line); an XML feed's or a JSON product list's as 'item N' (its items from 1); with
--combinations, with its file ('combinations_import.csv line 3').
The same problem in several rows is one line, with the lines ('column "EAN": Barcode … (warning):
lines 2, 4, 5 … and 14 more'), errors first, then the most rows, as the app's import groups them;
--all prints every problem on a line of its own, and every line of a list.
Headers are matched to fields by their words: the contract path
(arEffect.envSettings.intensity), the title ("Intensity") or a usual word ("EAN", "Vendor"), case,
punctuation, a shop's prefix ("Variant Barcode", "Google Shopping / Gender"), a unit ("Frame Width
(mm)", frame_width-mm) and a locale (name-en_US) aside. EAN, GTIN, UPC, ISBN and Barcode columns
fill the barcode; a shop's own codes (SKU, SKU Code, Variant SKU, MPN, Handle) never do unless a
--mapping says so. Where two columns could fill one field, the notes say which was taken and why.
Columns that match no field are ignored and listed as notes. The template's help row is skipped.

Shop exports are read by their own rules: Shopify (rows with the product's Handle and no Title are
its variants, or only its images), WooCommerce (variation rows name their Parent, anywhere in the
file), Google Merchant Center feeds (rows sharing item_group_id), PrestaShop (its combinations file
with --combinations), Magento 2 (a configurable product's children), Wix (a product's Variant rows
after it; its MEDIA rows its pictures) and Squarespace (the rows below a product without a Product
ID). Each variant is one SKU with
its product's fields, its own barcode and image, and its options under "options"; the notes count
products and variants. Values are read as people write them, each kind counted in the notes:
Y/N and yes/no, "Eyewear" as the suggested "eyewear", "52 mm" as "52" (frame sizes are millimetres;
dimensions take their unit into meta.dimensions.unit). Sections a new draft starts with (transform,
environment, 2D slots) are filled with its defaults where a row has none, unless FILE is an export
of Catalog Desk (every column a contract path) or the mapping says otherwise.

A value of the wrong kind is an error. A missing field is a warning, since the contract marks no
field as required.

Then the verdict, the one push and the app's Sync page give: "24 SKUs valid; 0 sendable; 24 held
back: no barcode (24)", each reason with its lines. A valid SKU is held back, as push would hold it,
when it is empty; has no product name or no barcode; leaves a required field empty (--require, else
the --profile's required fields, else ${DEFAULT_REQUIRED_FIELDS.join(', ')}); names the template's sample
model or pictures; has a barcode whose GTIN check digit is wrong, when --hold-bad-check-digits or the
--profile says so; or shares its barcode with another SKU of FILE (rows that all repeat one SKU
exactly are that SKU once: the first is sendable, the others held as its repeats). With --profile or --journal,
FILE is judged as a push to that journal's destination would judge it ("push --dry-run"): what push
would send is sendable, and what it would hold back is held back, with its reasons, besides the
above: a SKU changed since it was created there whose platform id is unknown, and one an earlier
push left unknown, failed or refused and unchanged since (left as it stands). Also named, with their lines:
rows read as the same SKU ("the file's 368 SKU rows hold 23 distinct SKUs", then "lines 25, 48 as
line 2": the same in the columns read), barcodes on more than one SKU, and shop ids on more than one row (a sheet's own product id:
WooCommerce's ID, else its SKU; Shopify's Variant ID, else its Handle with the variant's options;
a column headed Variant ID, ID, Product ID, else SKU): those hold nothing back. "push --dry-run"
says the same of a push to one destination, with what it would create, update or leave unchanged.

Last, a question about values that look like typos of a common one: a category, sub-category,
brand or status on at most 5 rows (or 0.5% of them), one or two letters from one on ten times as
many ('Category “Eyewaer” on 5 rows (lines 7, 19, …): did you mean “eyewear” (4,210 rows)?').
A question, not a problem: it is never an error or a warning, and the exit status ignores it.

Options:
  --json       Print one JSON object instead. For JSON files:
               {kind, items, valid, invalid, sendable, heldBack,
                errors: [{index, path, message}], warnings: [...],
                holds: [{index, reason, message}], distinct, repeated: [{indexes}],
                sharedBarcodes: [{barcode, indexes, differIn}], repeatedShopIds: [],
                rareValues: [{field, value, count, suggestion, suggestionCount, indexes, message}]}
               (index is null for a problem with the document itself); for sheets:
               {kind: "csv"|"xlsx"|"xml"|"json-products", items, valid, invalid, sendable, heldBack,
                errors: [{row, line, column, value, message}], warnings: [...],
                holds: [{row, line, reason, message}], distinct, repeated: [{rows, lines}],
                sharedBarcodes: [{barcode, rows, lines, differIn}],
                repeatedShopIds: [{shopId, rows, lines}],
                rareValues: [{field, value, count, suggestion, suggestionCount, rows, lines,
                message}], notes: [...]}
               (row counts data rows from 1, the first row under the header; line is its line in
               the spreadsheet, row + 1, and with --combinations file names whose line it is
               (files for lines); an XML feed's or a JSON product list's rows are its items, with
               no line. row is null for a problem with the file itself; a JSON product list's
               problems add item, the row's place: "[0].product_colors[2]"). reason: empty, identity,
               required, check-digit, sample or duplicate; with --profile or --journal, push's
               too: no-id (changed, its platform id unknown), standing (left as an earlier
               push left it) and no-update (an app changed since it was created). An app
               creation request has a verdict only with them; without, its object stops at
               invalid, errors and warnings
  --all        Print every problem, and every row of a reason or a repeat, on a line of its own
  --require FIELDS
               The fields a SKU needs besides its product name and barcode, as push takes them:
               comma-separated, from:
${wrapped(REQUIRABLE_FIELDS, 15, 100)};
               or "none". Default: the --profile's, else ${DEFAULT_REQUIRED_FIELDS.join(', ')}
  --hold-bad-check-digits
               Hold back a SKU whose barcode reads as a GTIN with a wrong check digit (else a
               warning), as push does with it; a --profile that asks it does so without it
  --profile NAME
               Judge as a push with this profile of the app would (its id or name): its required
               fields, and its destination's journal (where push keeps it). Only read: no token,
               no lock, nothing written
  --journal PATH
               Judge as a push with this journal would (push's --journal, of SKUs or of apps):
               hold back what it would hold back; read only
${SHEET_OPTIONS_USAGE}  -h, --help   Show this help

Exit status: 0 every SKU valid and sendable (warnings allowed), 1 a SKU invalid or held back (or
the document itself invalid, or no SKU in it), 2 bad usage, or FILE, the profiles or the journal
cannot be read or parsed (the reason goes to standard error, and --json prints nothing).
`

export const CONVERT_USAGE = `Usage: catalog-desk convert IN OUT [--force] [--all] [--require FIELDS | --profile NAME]
                           [--hold-bad-check-digits] [--journal PATH] [--mapping FILE]
                           [--decimal-comma] [--show-mapping]

Reads SKUs from IN (JSON, CSV or XLSX, as "validate" reads them), checks them the same way and
writes the valid ones to OUT by its extension: .json, a bulk upload request ({"skus": [...]});
.csv, UTF-8 CSV with a header of contract paths; .xlsx, a workbook with the same columns. Text
cells that start with = + - @ get a leading ' so spreadsheets do not run them as formulas; the
importer removes it again.

Problems are printed as by "validate", and so is its verdict: how many of the SKUs a push would
send, how many it would hold back and why, and the rows that repeat. Every valid SKU is written,
held back or not; invalid SKUs are left out of OUT, and the last line says how many of each. OUT is written
as SKUs are read and appears only once whole; it is not overwritten unless --force is given. An
.xlsx OUT holds at most ${MAX_XLSX_SKUS.toLocaleString('en-US')} SKUs (it is built whole in memory).

Options:
  --force      Overwrite OUT if it exists
  --all, --require FIELDS, --hold-bad-check-digits, --profile NAME, --journal PATH
               As for "validate": every problem on a line; what the verdict requires and knows
${SHEET_OPTIONS_USAGE}  -h, --help   Show this help

Exit status: 0 every SKU valid, written and sendable, 1 some SKU invalid or held back, or none in
IN (the valid ones are written: a request holding a barcode twice creates it twice if posted as it
is), 2 bad usage, IN cannot be read or parsed, or OUT exists or cannot be written.
`

export const SCHEMA_USAGE = `Usage: catalog-desk schema [--out DIR]

Prints the JSON Schemas of the contract's documents (sku, bulk-upload-request, app-create-request,
app-create-response) as one JSON object keyed by name. With --out, writes each to
DIR/<name>.schema.json instead, for editors that check JSON as you type.

Options:
  --out DIR    Write one file per document into DIR (created if missing)
  -h, --help   Show this help
`

export const SANDBOX_USAGE = `Usage: catalog-desk sandbox [--port N] [--token T] [--token-encoding raw|base64|either]
                            [--max-batch N] [--no-ids] [--store FILE] [--full-app-response]
                            [--fault SPEC]... [--fault-seed N] [--capacity SPEC]
                            [--reject-barcode BARCODE]...

Runs a stand-in for the service on 127.0.0.1 until Ctrl-C: the bulk SKU upload and the app
creation of the contract, and the SKU update of the platform's docs (PUT .../skus/{skuId}, a
partial update: only the fields sent change), checked with the same rules as "validate". A batch
with any invalid SKU is rejected whole (400) and nothing of it is stored; so is an update that
would leave its SKU invalid. The bulk upload answers 201 {message, count, skus: [{_id, barcode}]},
each SKU's id in the request's order (the live service's answer is not documented; this is the
sandbox's choice). Requests need "Authorization: Bearer TOKEN". What it received (each SKU as it
now stands, with its updates) and every request it answered can be read at /__sandbox/ (no token;
the endpoints are printed at start).

Options:
  --port N              Port on 127.0.0.1 (default 4010; 0 picks a free one, printed at start)
  --token T             The token requests must carry (default "sandbox-token")
  --token-encoding E    How the token follows "Bearer ": raw (default), base64 or either
  --max-batch N         More SKUs than this in one request answers 413 (default 200)
  --no-ids              Answer bulk uploads {message, count} alone, without the SKUs' ids, as a
                        service that gives no ids would (POST /__sandbox/settings
                        {"answerIds": true|false} changes it while it runs)
  --store FILE          Keep what was received in FILE (JSON), loaded again at the next start
  --full-app-response   Return a created app's nested objects as sent; by default features,
                        skinConcerns, report_titles, overallSkinScore, advance, loadingScreen,
                        instructionScreen and customCode come back empty, as in the contract
  --fault SPEC          Inject a fault; repeat for several, used in order. SPEC is
                        KIND[:before|:after][:endpoint=skus|apps|sku-update][:times=N|forever]
                            [:delay=MS][:retry-after=SECONDS][:rate=FRACTION]
                        KIND: latency, rate-limit (429), server-error (500), bad-gateway (502),
                        unavailable (503), gateway-timeout (504), reset (no answer),
                        html-error (502 as an HTML page), slow-response (default delay 30000).
                        before (the default): instead of processing, nothing is stored;
                        after: the request is processed and stored, then the answer is lost.
                        A rule applies once unless times says otherwise; with rate=0.2 it
                        applies to about 1 request in 5, every time unless times says otherwise.
                        Examples: rate-limit, unavailable:retry-after=2, reset:before:endpoint=skus,
                        slow-response:after:delay=5000:times=3, server-error:rate=0.1
  --fault-seed N        Seed of the random draws of rate= faults (default 1: the same faults
                        every run with one request at a time)
  --capacity SPEC       Model the service's capacity: slots=N:latency=MS[:retry-after=SECONDS].
                        Each request takes MS, N are served at once, and one beyond them is
                        answered 429 with Retry-After (default 1) and not processed. Fault
                        rules act first, in front of it. Example: slots=4:latency=2800
  --reject-barcode B    Refuse SKUs with barcode B although they are valid (422 for the whole
                        batch, naming skus.N.barcode); repeat for several
  -h, --help            Show this help

Exit status: 0 after a clean stop (Ctrl-C or SIGTERM), 2 bad usage, a port in use or a store
file that cannot be read.
`

export const PUSH_USAGE = `Usage: catalog-desk push FILE (--base-url URL --token-env NAME | --profile NAME [--base-url URL])
                         [--token-encoding raw|base64] [--batch-size N] [--concurrency N]
                         [--timeout SECONDS] [--journal PATH] [--report PATH] [--json]
                         [--require FIELDS] [--hold-bad-check-digits] [--unresolved PATH]
                         [--platform-has LIST] [--no-updates] [--dry-run] [--mapping FILE]
                         [--decimal-comma] [--show-mapping]

Sends what FILE holds to the service: SKUs (anything "validate" reads: JSON, CSV, XLSX), or an app
creation request (one app; its _id is printed with the fields the service did not return as sent).
SKUs that do not meet the contract are not sent; they are listed on standard error and make the
exit status 1. A warning (a status the platform is not known to take, a field the contract lists
left empty) holds nothing back: standard error says the fields the valid SKUs have one on.

SKUs are matched by barcode with what push sent to the same address before, whatever file they
came from (the journal, below): one never created there is created, in batches, by the bulk
upload; one created there and changed since is updated (PUT .../v2.0/skus/{skuId}, one a request,
only the fields that changed: a list whole, a changed category with its arEffect; a field emptied
in FILE stays on the platform, which is said); one unchanged since is not sent. An update needs the
platform's id of the SKU: the bulk upload's answer gives it when it carries ids, else a
--platform-has list with an id column does ("the platform's id of this SKU is unknown" says so). A
404 to an update with the service's message means the SKU is not on the platform any more: it is
refused, not created again. --no-updates creates only. An app is never updated (the service has
no update for apps): one changed since it was created is held, saying so. A barcode corrected in
FILE makes a new SKU to push: a SKU to create whose name and brand are those of one created there
under a barcode not in FILE (and of no other SKU) is said before anything is sent.

The bulk upload only creates: a SKU created twice is there twice. So before anything is sent, SKUs
pass the same gates as the app's Sync page, and those that fail one are "held" back: not sent,
listed on standard error with their item ([N], counting from 0; a sheet's line too) and why, "held"
in --report, counted in --json, exit status 1:
  - empty: nothing filled in beyond what a new draft starts with;
  - no product name or no barcode (always required);
  - a required field left empty: the --profile's required fields (Settings), else ${DEFAULT_REQUIRED_FIELDS.join(', ')};
    --require overrides either;
  - a sample address: the template's model or pictures, which stand for the shop's own files;
  - a barcode whose GTIN check digit is wrong, with --hold-bad-check-digits or a --profile that
    asks it (else a warning);
  - a barcode that another SKU of FILE carries too (none of them goes: keep one, and the fields
    they differ in, when few, are said; if one of them is what the journal sent there, it is that
    SKU and only the others are held; rows that all repeat one SKU exactly are that SKU once: the
    first goes, the others are held as its repeats);
  - a barcode --platform-has lists that the journal never created there;
  - changed since it was created there, with the platform's id unknown (no-id: --platform-has
    with an id column gives it).
Updates pass the same gates. What the journal left in doubt keeps its state: the gates judge only
what is sent now, so running again with another --require never reopens the rest.
What push cannot know: what other journals or the app created at that address.
The service has no read endpoint, so only the journal (and a list you give with --platform-has)
says what is there: keep one journal a destination, and check the platform when unsure.
push does not know team workspaces: it neither claims SKUs nor reads what the team's desks sent.
A team sends from the app (each desk claims its drafts on the workspace first), or gives push a
journal of its own per destination, kept in one place, and sends there from push only.

Only what provably did not reach the service is sent again by itself (429, 503 with Retry-After,
no connection), a few times with waits. A batch the service refuses (400/422, 413) is split until
the refused SKUs stand alone; they are "rejected" with the service's message and the others go on.
A 500 marks the batch "failed"; a 502, 504, 503 without Retry-After, timeout or a dropped answer
marks it "unknown" (the service may have created it: check before sending again). The command ends
early when the service refuses the token, cannot be reached, stays busy, or when several requests in
a row may or may not have been processed (failing: check the platform first, what they sent may be
there); a wrong address (404, 405, other 4xx; three updates in a row that find nothing) stops it.

Every request is recorded in the journal of its address (JSON lines), with the SKUs it makes stand
there. A request's start is flushed to disk before the request leaves; its end is written at once
and flushed with the next line, or when the command ends. Running again resumes: a creation that
was synced, rejected (and not changed since), failed or unknown is not sent again (unless
--platform-has says so: that decision is recorded in the journal too), and one that was being sent
when the command died becomes "unknown". An update whose outcome is unknown or failed is sent again
by the next push, whole: an update is idempotent (sent twice, it leaves the SKU as once). A journal
of another address is refused; one address spelt two ways ("HTTP://LocalHost/") is one. A first
push to this computer under one name (localhost, 127.0.0.1, [::1]) while a journal of another
records SKUs created there stops, naming them: --journal says which to keep. Ctrl-C stops sending
new requests; those in flight finish and are recorded. A journal an earlier catalog-desk kept (FILE.push-journal.jsonl beside FILE, or the one
--journal names) is carried over by barcode when FILE is the file it was written for, unchanged:
nothing it created is created again; with FILE changed since it is refused (exit 2), saying how to
carry it over.

Options:
  --base-url URL       The service's address: https://host (http:// only for 127.0.0.1 or localhost).
                       Required with --token-env; optional with --profile, whose address is used
                       (if given, it must be the profile's address)
  --token-env NAME     Read the API token from the environment variable NAME (never an argument)
  --token-encoding E   How the token goes in the Authorization header: raw (as it is, the default)
                       or base64. With --profile the profile's encoding is used: a different one
                       is refused (change the profile in the app instead)
  --profile NAME       Use a profile of the app (its id or name; a name several profiles share is
                       refused, give the id): its address, token encoding,
                       batch size, concurrency and timeouts, and its token from the OS keychain,
                       used only when it was set for the profile's present address (after the
                       address changed, or if set by an earlier version, set it again in the app).
                       The app's data folder is found as the app finds it, or CATALOG_DESK_DATA_DIR;
                       its profiles.json is only read, never changed
  --batch-size N       SKUs a request, ${batchSize.min} to ${batchSize.max} (default ${DEFAULT_SENDING.batchSize}, or the profile's)
  --concurrency N      The most requests at once, ${concurrency.min} to ${concurrency.max} (default ${DEFAULT_SENDING.concurrency}, or the profile's):
                       the push starts with 1 and raises it while the service keeps up
  --timeout SECONDS    Longest a request may take, ${timeoutSeconds.min} to ${timeoutSeconds.total} (default ${DEFAULT_SENDING.timeouts.totalMs / 1_000}, or the profile's)
  --journal PATH       The journal (default: push-journals/HOST_PORT.skus.jsonl, or .apps.jsonl, in
                       the app's data folder, or CATALOG_DESK_DATA_DIR: one a destination, whatever
                       FILE; its path is printed at the start)
  --report PATH        Write a JSON list with one entry per item: {index, barcode, state, action,
                       message?, notFound?, marked?} (state: synced, rejected, failed, unknown,
                       queued, invalid, held or not-updated; action: create, update or none;
                       marked: created there by the platform's list, nothing sent)
  --json               Print one JSON object at the end instead of the text summary:
                       {total, synced, rejected, failed, unknown, invalid, held, queued?,
                        created: {synced, rejected, failed, unknown, queued?},
                        updated: {synced, rejected, notFound, failed, unknown, queued?},
                        unchanged, marked, notUpdated, status, reason?, message?,
                        app?: {_id, droppedFields: [{path, change}]},
                        platformList?: {file, markedCreated, sentAgain, keptBack, unmatched,
                                        idsSet}}
                       (the first counts are of every item, both actions together; unchanged are
                       in synced, notUpdated are not; marked, created by the platform's list with
                       nothing sent, are in created.synced)
                       (reason, when status is paused: needs-token, offline, busy or failing)
  --require FIELDS     The fields a SKU needs to be sent besides its product name and barcode,
                       comma-separated, from:
${wrapped(REQUIRABLE_FIELDS, 23, 100)};
                       or "none". Default: the --profile's, else ${DEFAULT_REQUIRED_FIELDS.join(', ')}
  --hold-bad-check-digits
                       Hold back a SKU whose barcode reads as a GTIN with a wrong check digit
                       (else a warning); a --profile that asks it does so without it
  --unresolved PATH    At the end, write the SKUs whose creation the journal leaves unknown or
                       failed, to look up on the platform: CSV or XLSX by PATH's extension, one row
                       a SKU (index, a sheet's row, barcode, product name, state, message, request
                       id, time sent; cells escaped so a spreadsheet runs no formula). Written even
                       when nothing is sent, and with the header alone when nothing is left
  --platform-has LIST  The barcodes you found on the platform: a CSV, XLSX or text file of one
                       column, or with a column headed barcode (kept as text: leading zeros stay),
                       and optionally a column of their ids (_id, id, skuId, "SKU id" or "platform
                       id"; a barcode listed with two ids is refused). Before anything is sent, the
                       journal's unknown and failed creations whose barcode is listed become synced
                       ("Marked as created: on the platform's list LIST", recorded in the journal),
                       and the others are sent again in this run (a SKU the gates now hold stays as
                       it was); the ids listed are recorded for the SKUs created there, so they can
                       be updated. SKUs never created there whose barcode is listed are held. It
                       says what it decided: N marked created, K sent again, M barcodes on the list
                       that matched no unknown or failed SKU, I platform ids recorded.
                       A list that cannot be read stops the command (exit 2), nothing changed
  --no-updates         Create only: SKUs changed since they were sent there are left as they are
                       ("not-updated", counted in --json, exit status not 1 for them)
  --dry-run            Judge everything as above, against the journal, and stop: say what would be
                       created, updated and left unchanged, and what held back and why, with the
                       verdict "validate" gives ("24 SKUs valid; 0 sendable; 24 held back: no
                       barcode (24)"). Nothing is sent, no token is read (--token-env and --profile
                       are optional; the address is needed), and nothing is written: the journal is
                       read without its lock, and neither created nor changed; --report and
                       --unresolved are refused. --json prints {dryRun: true, total, valid,
                       invalid, sendable, heldBack, create, update, unchanged, marked, notUpdated,
                       standing, holds: [{index, row?, line?, reason, message}], platformList?}
                       (standing: left as an earlier push left them, unknown, failed or refused).
                       Exit status 0 when every item would be sent or is unchanged, else 1
${SHEET_OPTIONS_USAGE}  -h, --help           Show this help

Settling unknown and failed SKUs (the platform cannot be asked, so you look):
  catalog-desk push skus.csv … --unresolved check.csv    # lists what is unknown or failed
  # Look the barcodes of check.csv up on the platform; keep the rows you found there
  # (or write those barcodes one a line to found.txt), then:
  catalog-desk push skus.csv … --platform-has found.txt  # marks those created, sends the rest

Progress and the log go to standard error.

Exit status: 0 every item synced (or left as it is by --no-updates), 1 anything not synced (invalid,
held, rejected, not on the platform any more, failed, unknown or not sent) or a --report or
--unresolved file not written, 2 bad usage, FILE or the --platform-has list cannot be read, or a
journal that cannot be used (another address's, another push's, not a journal, or an earlier
version's for FILE as it was).
`

const { modelBytes, triangles, drawCalls, textureSize, pictureBytes, pictureSize } = DEFAULT_BUDGETS
const n = (value: number) => value.toLocaleString('en-US')

export const CHECK_ASSETS_USAGE = `Usage: catalog-desk check-assets FILE [--json] [--concurrency N] [--allow-local]
                                 [--cache FILE] [--budgets FILE]
                                 [--mapping FILE] [--decimal-comma] [--show-mapping]

Checks the files the SKUs of FILE name (anything "validate" reads: JSON, CSV, XLSX), as the app
does before sending: the 3D models (arEffect.effectAssets3D.N.url), the product image, the
environment image and the 2D effect assets. Each distinct address is downloaded and checked once,
however many SKUs name it; a SKU's assets are checked whether or not the SKU meets the contract.

3D models: reachable; valid glTF 2.0 by the Khronos glTF-Validator (its errors and warnings, with
its codes; Draco, meshopt and textured models included, a truncated one is an error); its size,
triangles, draw calls and texture sizes against the budgets; extensions the app's preview cannot
show (a warning: the model would not load there, or would look different). A .gltf's external
buffers and images are fetched from beside it, under the same rules: ${MAX_EXTERNAL_FILES} at most,
${MODEL_DEADLINE_MS / 1000} seconds for the model and its files together.
Pictures: reachable; what the bytes are (not what the server says: an HTML page is an error);
a type the field takes (an environment may be Radiance HDR or OpenEXR, a product image not); its
pixel size and file size against the budgets.

Budgets (over the first: a warning; over the second: an error):
  model size       ${formatBytes(modelBytes.recommended)}, ${formatBytes(modelBytes.maximum)} (a larger model is not downloaded)
  triangles        ${n(triangles.recommended)}, ${n(triangles.maximum)}
  draw calls       ${n(drawCalls.recommended)}, ${n(drawCalls.maximum)}
  texture size     ${n(textureSize.recommended)}, ${n(textureSize.maximum)} pixels, longer side
  picture size     ${formatBytes(pictureBytes.recommended)}, ${formatBytes(pictureBytes.maximum)}; ${n(pictureSize.recommended)}, ${n(pictureSize.maximum)} pixels, longer side

Addresses are fetched as the app fetches them: http and https only, no user name or password, at
most ${MAX_ASSET_REDIRECTS} redirects and ${ASSET_TIMEOUT_MS / 1000} seconds a file. An address on this computer or a local network
(127.0.0.1, 192.168.x.x, a name resolving there, a redirect there) is refused unless --allow-local.

Each result names the SKU ("[N]" of a JSON list, "line N" of a spreadsheet, with its barcode or else its
product name), the field and the address, then "ok" with what was found, or each problem as
"error: …" or "warning: …" with its code in brackets. The last line counts them.
Progress goes to standard error.

Options:
  --json            Print one JSON object instead:
                    {kind, skus, assets, files, unchanged?, ok, warnings, errors, budgets,
                     results: [{index, row?, line?, sku, field, url, kind, status, problems:
                       [{severity, code, message}], facts?}]}
                    (kind of a result: model, product-image, environment-image or 2d-asset;
                    status: ok, warning or error)
  --concurrency N   Files checked at once, ${CONCURRENCY.min} to ${CONCURRENCY.max} (default ${CONCURRENCY.default})
  --allow-local     Also check addresses on this computer or a local network
  --cache FILE      Keep what was found in FILE, and next time ask the servers whether each file
                    changed (ETag, Last-Modified): an unchanged one is not downloaded or checked
                    again. Only findings are kept; the budgets are judged every run. Nothing is
                    kept between runs without it. At most ${n(MAX_CACHED)} files, the least recently used
                    dropped first; a file that is not such a cache is refused, never overwritten
  --budgets FILE    Budgets of your own: JSON, {"modelBytes": {"recommended": N, "maximum": N}, …}
                    (modelBytes, triangles, drawCalls, textureSize, pictureBytes, pictureSize);
                    those it leaves out keep the defaults above
${SHEET_OPTIONS_USAGE}  -h, --help        Show this help

Exit status: 0 no asset has an error (warnings allowed), 1 some asset has an error, 2 bad usage,
or FILE, --budgets or --cache cannot be read or used.
`

export const COMMAND_USAGE: Record<string, string> = {
  validate: VALIDATE_USAGE,
  convert: CONVERT_USAGE,
  schema: SCHEMA_USAGE,
  sandbox: SANDBOX_USAGE,
  push: PUSH_USAGE,
  'check-assets': CHECK_ASSETS_USAGE,
}
