#!/usr/bin/env python3
"""A harness-protocol adapter in Python, standard library only.

It is the worked example for third parties: a complete implementation of the payments
service's signatures (x-signature, x-simplified-signature, webhook and request verification)
behind the conformance harness protocol, version 1 (JSON lines over stdio).

    pay-conformance run --impl "python3 adapters/python/adapter.py"
"""
import base64
import hashlib
import hmac
import json
import re
import sys

TOLERANCE_SECONDS = 60
DIGITS = re.compile(r"[0-9]+")
HEX64 = re.compile(r"[0-9a-fA-F]{64}")


# --- the implementation -----------------------------------------------------------------

def string_to_sign(merchant_id, timestamp, method, url, body):
    """merchant id + timestamp + METHOD + full URL + body, no delimiters; a GET signs no body."""
    method = method.upper()
    signed_body = b"" if method == "GET" else body
    return (merchant_id + timestamp + method + url).encode("utf-8") + signed_body


def simplified_string_to_sign(merchant_id, timestamp, payin_id):
    """merchant id + timestamp + payin id: no method, as the interface's worked example shows."""
    return (merchant_id + timestamp + payin_id).encode("utf-8")


def hmac_hex(secret, data):
    return hmac.new(secret.encode("utf-8"), data, hashlib.sha256).hexdigest()  # lowercase hex


def verify(merchant_id, secret, method, url, headers, body, now):
    """Returns None when valid, else the first failing check's reason code, in protocol order."""
    sent_merchant = headers.get("x-merchant-id")
    sent_timestamp = headers.get("x-timestamp")
    sent_signature = headers.get("x-signature")
    if not sent_merchant or not sent_timestamp or not sent_signature:
        return "missing_header"
    # fullmatch, and ASCII digits only: str.isdigit() would also accept "²" or "٣".
    if not DIGITS.fullmatch(sent_timestamp):
        return "malformed_timestamp"
    if abs(now - int(sent_timestamp)) > TOLERANCE_SECONDS:
        return "expired"
    if sent_merchant != merchant_id:
        return "merchant_mismatch"
    if not HEX64.fullmatch(sent_signature):
        return "malformed_signature"
    expected = hmac_hex(secret, string_to_sign(sent_merchant, sent_timestamp, method, url, body))
    if not hmac.compare_digest(expected, sent_signature.lower()):
        return "bad_signature"
    return None


# --- the protocol -----------------------------------------------------------------------

CAPABILITIES = ["sign_request", "sign_simplified", "verify_webhook", "verify_request"]


def b64(data):
    return base64.b64encode(data).decode("ascii")


def answer(req):
    cmd = req.get("cmd")
    if cmd == "hello":
        return {
            "protocol": 1,
            "name": "pay-python-example",
            "version": "1.0.0",
            "language": "Python %d.%d" % sys.version_info[:2],
            "capabilities": CAPABILITIES,
        }
    if cmd == "bye":
        return {}
    case = req.get("case")
    if cmd == "sign_request":
        body = base64.b64decode(req.get("body_b64", ""), validate=True)
        sts = string_to_sign(req["merchant_id"], req["timestamp"], req["method"], req["url"], body)
        return {
            "case": case,
            "headers": {
                "x-merchant-id": req["merchant_id"],
                "x-timestamp": req["timestamp"],
                "x-signature": hmac_hex(req["secret"], sts),
            },
            # Optional, but it lets the runner say at which byte a wrong string to sign differs.
            "string_to_sign_b64": b64(sts),
        }
    if cmd == "sign_simplified":
        sts = simplified_string_to_sign(req["merchant_id"], req["timestamp"], req["payin_id"])
        return {
            "case": case,
            "headers": {
                "x-merchant-id": req["merchant_id"],
                "x-timestamp": req["timestamp"],
                "x-simplified-signature": hmac_hex(req["secret"], sts),
            },
            "string_to_sign_b64": b64(sts),
        }
    if cmd in ("verify_webhook", "verify_request"):
        headers = {k.lower(): v for k, v in req.get("headers", {}).items()}
        body = base64.b64decode(req.get("body_b64", ""), validate=True)
        reason = verify(req["merchant_id"], req["secret"], req["method"], req["url"], headers, body, int(req["now"]))
        return {"case": case, "valid": reason is None, "reason": reason}
    return {"case": case, "error": "unsupported"}


def main():
    # Bytes in, bytes out: no locale-dependent decoding, and every answer flushed at once.
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    for raw in stdin:
        req = json.loads(raw.decode("utf-8"))
        try:
            reply = answer(req)
        except Exception as exc:  # a failure of this case, never of the whole run
            reply = {"case": req.get("case"), "error": "%s: %s" % (type(exc).__name__, exc)}
        stdout.write(json.dumps(reply, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n")
        stdout.flush()
        if req.get("cmd") == "bye":
            return 0
    return 0  # stdin closed


if __name__ == "__main__":
    sys.exit(main())
