// The CLI's usage text, printed by `help` and after a usage error.
import { DEFAULT_MAX_RESTARTS } from '../harness/run.js';
import { DEFAULT_START_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '../types.js';

/** Every command and option, as `pay-conformance help` prints them. */
export const USAGE = `Usage:
  pay-conformance                      every mode against the toolkit's own implementations: the suite
                                       against the bundled reference adapter, webhook-endpoint against
                                       an embedded receiver, server against an embedded @pay/sandbox,
                                       client against the reference adapter's SDK (@pay/client)
  pay-conformance run [options]        replay the golden vectors against an implementation
  pay-conformance server --base-url URL --card-proxy-url URL --merchant-id ID [--secret S] [options]
                                       test a service implementation over HTTP (the secret may instead
                                       be given as PAY_SECRET in the environment)
  pay-conformance webhook-endpoint --url URL --merchant-id ID [--secret S] [options]
                                       test a merchant's running webhook endpoint over HTTP (the secret
                                       may instead be given as PAY_WEBHOOK_SECRET in the environment)
  pay-conformance client [options]     drive an SDK through the protocol's client commands against a
                                       service the runner plays on loopback (exact bytes, answers,
                                       errors, exactly-once under injected faults)
  pay-conformance report DIR... [--out DIR] [--no-versions]
                                       merge report directories (written by --report) into one table:
                                       Markdown on stdout; with --out, README.md, index.html and a badge
                                       per implementation written into DIR
  pay-conformance adapter              serve the bundled reference implementation on stdio (protocol child)

run options:
  --impl "<command line>"   the implementation under test (default: the bundled reference adapter)
  --vectors DIR             vector files to use (default: the ones shipped with the runner)
  --category NAME           only these categories (repeatable, comma-separated, * wildcard)
  --id ID                   only these vector ids (repeatable, comma-separated, * wildcard; one matching none exits 2)
  --fail-fast               stop at the first failed case
  --strict                  count skipped cases (capabilities not implemented) as failures
  --max-restarts N          restarts of the child allowed over the whole run (default ${DEFAULT_MAX_RESTARTS}); once spent,
                            the remaining cases are reported as not run
  --start-timeout-ms N      time limit for each child to start and answer hello (default ${DEFAULT_START_TIMEOUT_MS})

client options:
  --impl "<command line>"   the adapter of the SDK under test (default: the reference adapter, on @pay/client)
  --id ID                   only these cases (repeatable, comma-separated, * wildcard; one matching none exits 2)
  --strict, --max-restarts N, --start-timeout-ms N   as for run

server options:
  --webhook-url URL         the webhook_url given in the creates (default: an address that never resolves)

options of every mode:
  --json FILE               write a JSON report
  --junit FILE              write a JUnit XML report
  --tap                     print TAP version 13 on stdout (the human report goes to stderr)
  --report DIR              write a report directory: summary.json, index.html (secrets and card data
                            masked) and badge.svg
  --name NAME               the implementation's name in the report directory when it gives none in hello
                            (server and webhook-endpoint modes; default: the address tested)
  --timeout-ms N            time limit per request (default ${DEFAULT_TIMEOUT_MS})
  --insecure                (HTTP modes) accept a self-signed TLS certificate

report options:
  --out DIR                 write README.md, index.html and badges/<implementation>.svg into DIR
  --no-versions             leave out every version (for a table committed beside the code it judges)

Exit codes: 0 every required case passed, 1 failures, 2 the harness itself could not run (for report:
a directory that cannot be merged).
`;
