"""A small client (SDK) for the payments service, in Python, standard library only.

It is the worked example of an SDK that client mode (``pay-conformance client``) passes: the
bytes signed are the bytes sent, the URL signed is the URL called, answers and errors are typed,
and a create whose answer is lost is never sent again blindly. adapter.py drives it through the
harness protocol's client commands.

    client = Client("https://api.pay.example", "m_123", secret, card_proxy_url="https://cards.pay.example")
    payin = client.create_payin({"reference_id": "order-1", "payment": {"amount": "10.50", "currency": "EUR"}, ...})
"""
import datetime
import decimal
import hashlib
import hmac
import http.client
import json
import random
import re
import socket
import time
import urllib.parse
import uuid

DATETIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?")
DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?")


# --- what a call can end with ------------------------------------------------------------

class PayError(Exception):
    """A call failed. ``kind`` is one of: invalid_request, authentication, not_found, api,
    invalid_response, network, timeout. For a create, any PayError means it was not created."""

    def __init__(self, kind, message, status=None, code=None, paths=()):
        super().__init__(message)
        self.kind, self.status, self.code, self.paths = kind, status, code, list(paths)


class OutcomeUnknown(Exception):
    """A create whose outcome could not be decided in time: look ``reference_id`` up later."""

    def __init__(self, reference_id, message):
        super().__init__(message)
        self.reference_id = reference_id


class _NotSent(Exception):
    """The request provably did not leave: the connection never opened, or no time was left to open it."""

    def __init__(self, message, kind="network"):
        super().__init__(message)
        self.kind = kind


# --- reading answers ---------------------------------------------------------------------

def parse_datetime(text):
    """A service datetime (no offset means UTC; a fraction of any length, or none) as an aware datetime."""
    m = DATETIME.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise ValueError("not an ISO 8601 datetime: %r" % (text,))
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    micro = int((m.group(7) or "0").ljust(6, "0")[:6])
    zone = m.group(8)
    offset = datetime.timedelta(0)
    if zone and zone != "Z":
        sign = -1 if zone[0] == "-" else 1
        offset = sign * datetime.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
    local = datetime.datetime(year, month, day, hour, minute, second, micro, tzinfo=datetime.timezone.utc)
    return local - offset


def _record(status, headers, data):
    """A 2xx answer as a record: JSON with an id, amounts as Decimals, datetimes parsed; else invalid_response."""
    content_type = headers.get("content-type", "")
    if not content_type.lower().startswith("application/json"):
        raise PayError("invalid_response", "the service answered %d with content type %r, not JSON" % (status, content_type), status)
    try:
        record = json.loads(data.decode("utf-8"), parse_float=decimal.Decimal, parse_int=decimal.Decimal)
    except (UnicodeDecodeError, ValueError):
        raise PayError("invalid_response", "the service answered %d with a body that is not JSON" % status, status)
    if not isinstance(record, dict) or not isinstance(record.get("id"), str):
        raise PayError("invalid_response", "the service answered %d with something that is not a record" % status, status)
    for field in ("created_at", "updated_at", "expires_at"):
        if field in record:
            try:
                record[field] = parse_datetime(record[field])
            except ValueError as exc:
                raise PayError("invalid_response", "%s: %s" % (field, exc), status)
    return record


def _refusal(status, headers, data):
    """A non-2xx answer as the PayError of its kind."""
    body = None
    if headers.get("content-type", "").lower().startswith("application/json"):
        try:
            body = json.loads(data.decode("utf-8"))
        except ValueError:
            body = None
    error = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), dict) else {}
    code = error.get("code") if isinstance(error.get("code"), str) else None
    paths = [e["path"] for e in error.get("errors", []) if isinstance(e, dict) and isinstance(e.get("path"), str)]
    message = "the service answered %d%s" % (status, ": %s" % code if code else "")
    if status == 401:
        return PayError("authentication", message, status, code)
    # A 404 that is not the service's JSON (a proxy's page) says nothing about the record.
    if status == 404 and body is not None:
        return PayError("not_found", message, status, code)
    return PayError("api", message, status, code, paths)


# --- the client ----------------------------------------------------------------------------

class Client:
    def __init__(self, base_url, merchant_id, secret, card_proxy_url=None, timeout=30.0, total_timeout=120.0,
                 tolerance_seconds=60, settle_seconds=10, retries=2):
        self.base_url = base_url.rstrip("/")
        self.card_proxy_url = card_proxy_url.rstrip("/") if card_proxy_url else None
        self.merchant_id, self._secret = merchant_id, secret
        self.timeout, self.total_timeout, self.retries = timeout, total_timeout, retries
        self.tolerance_seconds, self.settle_seconds = tolerance_seconds, settle_seconds

    def __repr__(self):  # never the secret
        return "Client(%r, %r)" % (self.base_url, self.merchant_id)

    # --- the operations ---

    def create_payin(self, params):
        return self._create("payins", "/v2/merchants/payins/", params)

    def create_payin_legacy(self, params):
        return self._create("payins", "/v1/merchants/payins/", params)

    def create_payout(self, params, payment_page=False):
        if payment_page and not (params.get("redirect_urls") or {}).get("success"):
            raise PayError("invalid_request", "redirect_urls.success is required for the payment page", paths=["redirect_urls.success"])
        return self._create("payouts", "/v2/merchants/payouts/", params)

    def get_payin(self, payin_id):
        return self._lookup("/v2/merchants/payins/" + self._component(payin_id), deadline=self._deadline())

    def get_payin_by_reference(self, reference_id):
        return self._lookup(self._by_reference("payins", reference_id), deadline=self._deadline())

    def get_payout(self, payout_id):
        return self._lookup("/v2/merchants/payouts/" + self._component(payout_id), deadline=self._deadline())

    def get_payout_by_reference(self, reference_id):
        return self._lookup(self._by_reference("payouts", reference_id), deadline=self._deadline())

    def push_card(self, url, payin_id, card):
        """Sends the card once (the token is single-use); the payin as answered, or None."""
        if not self.card_proxy_url or not url.startswith(self.card_proxy_url + "/"):
            raise PayError("invalid_request", "the push address is not under card_proxy_url", paths=["url"])
        body = json.dumps({"payin_id": payin_id, "card": card}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        timestamp = str(int(time.time()))
        signature = self._hmac((self.merchant_id + timestamp + payin_id).encode("utf-8"))
        headers = {"x-merchant-id": self.merchant_id, "x-timestamp": timestamp, "x-simplified-signature": signature}
        status, answer_headers, data = self._exchange_or_raise("POST", url, body, headers, self._deadline())
        if not 200 <= status < 300:
            raise _refusal(status, answer_headers, data)
        try:
            return _record(status, answer_headers, data)
        except PayError:
            return None

    # --- URLs and bytes: built once, signed as sent ---

    @staticmethod
    def _component(value):
        # Everything but RFC 3986's unreserved characters is escaped, so no layer re-encodes it.
        return urllib.parse.quote(value, safe="")

    def _by_reference(self, resource, reference_id):
        return "/v2/merchants/%s/?reference_id=%s" % (resource, self._component(reference_id))

    def _serialise(self, params):
        """The body's bytes, once: compact JSON, the amount written digit for digit as a JSON number."""
        payment = dict(params.get("payment") or {})
        amount = str(payment.get("amount"))
        if not DECIMAL.fullmatch(amount):
            raise PayError("invalid_request", "payment.amount must be a decimal such as 10.50", paths=["payment.amount"])
        marker = "__amount_%s__" % uuid.uuid4().hex
        payment["amount"] = marker
        text = json.dumps(dict(params, payment=payment), ensure_ascii=False, separators=(",", ":"))
        return text.replace('"%s"' % marker, amount).encode("utf-8")

    def _hmac(self, data):
        return hmac.new(self._secret.encode("utf-8"), data, hashlib.sha256).hexdigest()

    def _signed(self, method, url, body):
        timestamp = str(int(time.time()))
        signed = (self.merchant_id + timestamp + method + url).encode("utf-8") + (body if method != "GET" else b"")
        return {"x-merchant-id": self.merchant_id, "x-timestamp": timestamp, "x-signature": self._hmac(signed)}

    # --- the wire ---

    def _deadline(self):
        """When a call starting now must be over (total_timeout), on the wall clock."""
        return time.time() + self.total_timeout

    def _exchange(self, method, url, body, headers, deadline=None):
        """One HTTP exchange; (status, headers, body). Raises _NotSent, or PayError network / timeout.

        The time limit (``timeout``, and the call's ``deadline`` when sooner) bounds the whole
        attempt, the body included. http.client's own ``timeout=`` is a socket timeout: it bounds
        each read, so an answer whose body trickles in, a few bytes at a time, would keep an
        attempt going long past it. So the limit is a deadline kept across the reads, and the
        socket's timeout is set to the time left before each one.
        """
        limit = self.timeout
        if deadline is not None:
            limit = deadline - time.time() if limit is None else min(limit, deadline - time.time())
        ends = None if limit is None else time.monotonic() + limit

        def left():
            """Seconds left in the attempt (None: no limit); socket.timeout once there are none."""
            if ends is None:
                return None
            rest = ends - time.monotonic()
            if rest <= 0:
                raise socket.timeout("the time limit ran out")
            return rest

        try:
            first = left()
        except socket.timeout:
            raise _NotSent("no time left within the time limit", "timeout")
        parts = urllib.parse.urlsplit(url)
        target = url[len("%s://%s" % (parts.scheme, parts.netloc)):] or "/"
        cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        conn = cls(parts.hostname, parts.port, timeout=first)
        try:
            try:
                conn.connect()
            except ConnectionRefusedError as exc:
                raise _NotSent(str(exc))
            # The socket itself: getresponse() lets go of it (conn.sock is None) when the answer
            # closes the connection, and the answer is still read through it.
            sock = conn.sock
            headers = dict(headers, accept="application/json")
            if body is not None:
                headers["content-type"] = "application/json"
            sock.settimeout(left())
            conn.request(method, target, body=body, headers=headers)
            sock.settimeout(left())
            response = conn.getresponse()
            chunks = []
            while True:
                sock.settimeout(left())
                chunk = response.read1(65536)
                if not chunk:
                    break
                chunks.append(chunk)
            if response.length:  # the connection closed before the Content-Length arrived
                raise http.client.IncompleteRead(b"".join(chunks), response.length)
            return response.status, {k.lower(): v for k, v in response.getheaders()}, b"".join(chunks)
        except socket.timeout:
            raise PayError("timeout", "no complete answer within %.1f s" % limit)
        except (OSError, http.client.HTTPException) as exc:
            raise PayError("network", "%s: %s" % (type(exc).__name__, exc))
        finally:
            conn.close()

    def _exchange_or_raise(self, method, url, body, headers, deadline=None):
        try:
            return self._exchange(method, url, body, headers, deadline)
        except _NotSent as exc:
            raise PayError(exc.kind, "not sent: %s" % exc)

    def _lookup(self, path, retries=None, deadline=None):
        """A signed GET, retried on no answer, 429 and 5xx while the call's deadline allows; the
        record, or the PayError of the last attempt."""
        url = self.base_url + path
        deadline = self._deadline() if deadline is None else deadline
        attempts = 1 + (self.retries if retries is None else retries)
        for attempt in range(1, attempts + 1):
            try:
                status, headers, data = self._exchange_or_raise("GET", url, None, self._signed("GET", url, b""), deadline)
            except PayError as exc:
                error = exc
            else:
                if 200 <= status < 300:
                    return _record(status, headers, data)
                error = _refusal(status, headers, data)
                if status != 429 and status < 500:
                    raise error
            delay = _backoff(attempt)
            if attempt == attempts or time.time() + delay >= deadline:
                raise error
            time.sleep(delay)

    # --- creates, exactly once ---

    def _create(self, resource, path, params):
        params = dict(params)
        reference_id = params.setdefault("reference_id", str(uuid.uuid4()))
        body = self._serialise(params)
        url = self.base_url + path
        deadline = self._deadline()
        for sends in range(1, self.retries + 2):
            headers = self._signed("POST", url, body)
            timestamp = int(headers["x-timestamp"])
            try:
                status, answer_headers, data = self._exchange("POST", url, body, headers, deadline)
            except _NotSent as exc:
                lost = PayError(exc.kind, "not sent: %s" % exc)
                if sends > self.retries or exc.kind == "timeout":
                    raise lost
                time.sleep(_backoff(sends))
                continue
            except PayError as exc:
                lost = exc
            else:
                if 200 <= status < 300:
                    try:
                        return _record(status, answer_headers, data)
                    except PayError as exc:
                        lost = exc  # accepted, unreadable: the lookup tells
                elif status == 409:
                    return self._after_409(resource, reference_id, params, deadline)
                elif status >= 500:
                    lost = _refusal(status, answer_headers, data)
                else:
                    raise _refusal(status, answer_headers, data)  # refused: nothing created
            found = self._reconcile(resource, reference_id, params, timestamp, deadline, lost)
            if found is not None:
                return found
            if sends > self.retries:
                raise lost  # proven not created, and no re-send left
        raise lost

    def _reconcile(self, resource, reference_id, params, timestamp, deadline, lost):
        """After a lost answer: the record found by reference_id, or None once it is proven not created."""
        # The service accepts the attempt only until timestamp + tolerance; a create shows in lookups
        # within settle_seconds. After dead_at a lookup that misses proves it was never created.
        dead_at = timestamp + self.tolerance_seconds + 1 + self.settle_seconds
        poll = 0
        while True:
            poll += 1
            sent_at = time.time()
            try:
                record = self._lookup(self._by_reference(resource, reference_id), retries=0, deadline=deadline)
            except PayError as exc:
                if exc.kind == "not_found" and sent_at >= dead_at:
                    return None
                if exc.kind in ("authentication", "api") and exc.status is not None and exc.status < 500 and exc.status not in (404, 429):
                    raise OutcomeUnknown(reference_id, "%s; the lookup was refused: %s" % (lost, exc))
                missing = exc.kind == "not_found"
            else:
                if _same_payment(record, params):
                    return record
                raise OutcomeUnknown(reference_id, "reference_id %r belongs to another transaction" % reference_id)
            now = time.time()
            delay = min(_backoff(poll), dead_at - now) if now < dead_at else (0 if missing else _backoff(poll))
            delay = max(0.0, delay)
            if now + delay >= deadline:
                raise OutcomeUnknown(reference_id, "%s; no time left to prove it was not created" % lost)
            time.sleep(delay)

    def _after_409(self, resource, reference_id, params, deadline):
        """The service has a record with this reference_id: it is the result when it is ours."""
        poll = 0
        while True:
            poll += 1
            try:
                record = self._lookup(self._by_reference(resource, reference_id), retries=0, deadline=deadline)
            except PayError:
                record = None
            if record is not None:
                if _same_payment(record, params):
                    return record
                raise PayError("api", "reference_id %r belongs to another transaction" % reference_id, 409)
            if time.time() + _backoff(poll) >= deadline:
                raise OutcomeUnknown(reference_id, "the service says the reference_id exists, and no lookup found it in time")
            time.sleep(_backoff(poll))


def _same_payment(record, params):
    sent = params.get("payment") or {}
    got = record.get("payment") or {}
    same_currency = sent.get("currency") is None or got.get("currency") == sent.get("currency")
    return same_currency and decimal.Decimal(str(got.get("amount"))) == decimal.Decimal(str(sent.get("amount")))


def _backoff(attempt):
    """Capped exponential backoff with jitter, in seconds."""
    return min(2.0, 0.1 * 2 ** (attempt - 1)) * (0.5 + random.random() / 2)
