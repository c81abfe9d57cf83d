// The overall usage of `pay-sandbox`: starting a sandbox, and the commands that drive a running one.
// Each command's own `--help` text lives with the command.

/** The sandbox a command drives when neither `--url` nor PAY_SANDBOX_URL names one. */
export const DEFAULT_SANDBOX_URL = 'http://127.0.0.1:4010';

/** The `--url` line of a command's `--help`. */
export const URL_LINE = `  --url URL              the sandbox (default ${DEFAULT_SANDBOX_URL}, or PAY_SANDBOX_URL)`;

/** `pay-sandbox --help`: the server's options and the list of commands. */
export const USAGE = `Usage: pay-sandbox [serve] [--port N] [--host 127.0.0.1] [--merchant ID:SECRET[:STATIC_WEBHOOK_URL]]...
       pay-sandbox COMMAND [options] [--url URL]

A local stand-in for the payments service. With no command (or serve), it starts a sandbox.
Merchants also come from PAY_SANDBOX_MERCHANTS (ID:SECRET[:URL] entries separated by white
space); with none, a demo merchant is used.
Options:
  --port N                port to listen on (default 4010; 0 picks a free one)
  --host ADDRESS          interface to listen on (default 127.0.0.1)
  --merchant SPEC         a merchant, ID:SECRET or ID:SECRET:STATIC_WEBHOOK_URL (repeatable)
  --state FILE            load the sandbox's state from FILE at start (if it exists) and write it
                          back there while running and on exit
  --seed FILE             create the transactions in FILE at start (JSON: {"transactions": [...]})
  --public-url URL        the origin clients call when it is not what reaches the sandbox (a proxy)
  --allow-http-host NAME  a host of a private network (docker-compose) where plain http is fine:
                          the sandbox answers under it and sends webhooks to http://NAME... (repeatable;
                          also PAY_SANDBOX_ALLOW_HTTP_HOSTS, comma-separated)
  --max-transactions N    transactions kept at most, the oldest forgotten (default 10000)
  --no-unique-references  accept a create with a reference_id already used as a new transaction
                          (default: refused with 409 duplicate_reference_id)
  --admin-token TOKEN     the token that opens the admin API and dashboard from elsewhere than this
                          machine (also PAY_SANDBOX_ADMIN_TOKEN; default: a random one, printed)
  --local-receiver URL    an origin on this machine (http://127.0.0.1:3000) webhooks may go to while
                          the sandbox is reachable from outside (--public-url, --host) (repeatable)
  --quiet                 no log line per request or webhook attempt
  --help                  this text

Commands, each against a running sandbox at --url URL (default ${DEFAULT_SANDBOX_URL}, or
PAY_SANDBOX_URL):
  payin create            create a payin, signed as a merchant, with a valid body you can change
  payout create           create a payout, the same way
  status KIND ID STATUS   move a payin or payout to a status (executed, failed, expired...)
  advance DURATION        move the schedule clock forward (90, 15m, 1h30m, 2d) and run what falls due
  transactions            list the transactions
  deliveries              list the webhook attempts (--transaction ID: of one transaction)
  requests                list the requests the sandbox received, newest first, and why refused
  reset                   forget every transaction, delivery, fault and request
  help [COMMAND]          this text, or a command's

A command against a sandbox on another machine sends PAY_SANDBOX_ADMIN_TOKEN as its admin token.
Run pay-sandbox COMMAND --help for a command's options. Exit codes: 0 done, 1 the sandbox refused
or could not be reached, or could not start (its port in use, a state or seed file it cannot use),
2 a usage error.`;
