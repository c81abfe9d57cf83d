#!/usr/bin/env python3
"""A harness-protocol adapter in Python, standard library only.

It is the worked example for third parties: a complete implementation of the payments
service's signatures (x-signature, x-simplified-signature, webhook and request verification)
behind the conformance harness protocol, version 1 (JSON lines over stdio), and of an SDK that
calls the service (pay_client.py, beside it) behind the protocol's client commands.

    pay-conformance run --impl "python3 adapters/python/adapter.py"
    pay-conformance client --impl "python3 adapters/python/adapter.py"
"""
import base64
import datetime
import os
import hashlib
import hmac
import json
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pay_client  # noqa: E402  (the SDK beside this file)

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
CLIENT_CAPABILITIES = [
    "client_create_payin", "client_create_payin_legacy", "client_create_payout", "client_get_payin",
    "client_get_payin_by_reference", "client_get_payout", "client_get_payout_by_reference", "client_push_card",
]


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
            "capabilities": CAPABILITIES + CLIENT_CAPABILITIES,
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
    if cmd in CLIENT_CAPABILITIES:
        return dict(client_command(cmd, req), case=case)
    return {"case": case, "error": "unsupported"}


# --- the client commands: one operation with the SDK, its outcome in the protocol's terms -------

def client_for(req):
    return pay_client.Client(
        req["base_url"], req["merchant_id"], req["secret"], card_proxy_url=req["card_proxy_url"],
        timeout=req["timeout_ms"] / 1000.0, total_timeout=req["total_timeout_ms"] / 1000.0,
        tolerance_seconds=req["tolerance_seconds"], settle_seconds=req["settle_seconds"],
    )


def perform(client, cmd, req):
    if cmd == "client_create_payin":
        return client.create_payin(req["params"])
    if cmd == "client_create_payin_legacy":
        return client.create_payin_legacy(req["params"])
    if cmd == "client_create_payout":
        return client.create_payout(req["params"], payment_page=req.get("payment_page", False))
    if cmd == "client_get_payin":
        return client.get_payin(req["id"])
    if cmd == "client_get_payin_by_reference":
        return client.get_payin_by_reference(req["reference_id"])
    if cmd == "client_get_payout":
        return client.get_payout(req["id"])
    if cmd == "client_get_payout_by_reference":
        return client.get_payout_by_reference(req["reference_id"])
    return client.push_card(req["url"], req["payin_id"], req["card"])


def iso_utc(value):
    return value.astimezone(datetime.timezone.utc).isoformat().replace("+00:00", "Z") if isinstance(value, datetime.datetime) else value


def record_answer(record):
    """The SDK's record as the protocol answers it: the amount as a decimal string, datetimes in UTC."""
    if record is None:
        return None
    payment = record.get("payment") or {}
    answer = {k: record.get(k) for k in ("id", "reference_id", "status")}
    answer["payment"] = {"amount": str(payment.get("amount")), "currency": payment.get("currency")}
    for field in ("created_at", "updated_at", "expires_at"):
        answer[field] = iso_utc(record.get(field))
    return answer


def client_command(cmd, req):
    try:
        record = perform(client_for(req), cmd, req)
    except pay_client.OutcomeUnknown as exc:
        return {"outcome": "unknown", "reference_id": exc.reference_id}
    except pay_client.PayError as exc:
        return {"outcome": "error", "kind": exc.kind, "status": exc.status, "code": exc.code, "paths": exc.paths, "message": str(exc)}
    return {"outcome": "ok", "record": record_answer(record)}


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
