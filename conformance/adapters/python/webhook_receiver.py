#!/usr/bin/env python3
"""A webhook receiver in Python, standard library only: the worked example of an endpoint that
webhook-endpoint mode tests, with the verification of adapter.py (beside it) behind HTTP.

    PAY_WEBHOOK_SECRET=sk_... python3 webhook_receiver.py --merchant-id m_123 [--port 8000]
    pay-conformance webhook-endpoint --url http://127.0.0.1:8000/webhooks/pay --merchant-id m_123

The secret comes from the environment, so it never shows in the process list. The first line on
stdout is the receiver's exact URL (with --port 0, a free port is picked): the address given to the
service, and the one every signature is verified against. It is never rebuilt from the request's
Host or X-Forwarded-* headers, which whoever sends the request chooses. A correctly signed event
gets 204, every time it comes (the service sends it again when it got no 2xx), anything else 401.
"""
import argparse
import http.server
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adapter import verify  # noqa: E402  (the verification beside this file)


class Receiver(http.server.BaseHTTPRequestHandler):
    """Verifies each POST against the server's url, merchant_id and secret (set in main)."""

    def do_POST(self):
        server = self.server
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length)
        if self.path != server.path:
            return self.answer(404)
        # Header names are case-insensitive; verify() reads them in lowercase.
        headers = {k.lower(): v for k, v in self.headers.items()}
        reason = verify(server.merchant_id, server.secret, "POST", server.url, headers, body, int(time.time()))
        if reason is not None:
            return self.answer(401)
        # Here the application would act on json.loads(body), once per event id.
        self.answer(204)

    def answer(self, status):
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):  # no access log: stdout carries the URL alone
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--merchant-id", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--path", default="/webhooks/pay")
    args = parser.parse_args()
    secret = os.environ.get("PAY_WEBHOOK_SECRET")
    if not secret:
        parser.error("PAY_WEBHOOK_SECRET must hold the webhook secret")
    server = http.server.ThreadingHTTPServer((args.host, args.port), Receiver)
    server.path, server.merchant_id, server.secret = args.path, args.merchant_id, secret
    server.url = "http://%s:%d%s" % (args.host, server.server_address[1], args.path)
    print(server.url, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
