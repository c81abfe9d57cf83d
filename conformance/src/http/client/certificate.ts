// A TLS certificate no one trusts, made at run time: self-signed, for 127.0.0.1 and localhost,
// valid for a day, its key never written anywhere. Client mode's TLS listener presents it, and an
// SDK must refuse it (no authority it trusts issued it). Node's crypto makes keys and signs
// bytes but writes no certificate, and the runner must not depend on an openssl binary being
// installed, so the few DER structures of an X.509 v3 certificate are written here.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/** A certificate and its private key, both PEM, for `tls.createServer`. */
export interface TestCertificate {
  cert: string;
  key: string;
}

/** A DER element: its tag, its length, its content. */
function der(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, (n >> 8) & 0xff, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

const sequence = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => der(0x31, Buffer.concat(items));
const utf8 = (text: string) => der(0x0c, Buffer.from(text, 'utf8'));
const octets = (bytes: Buffer) => der(0x04, bytes);
/** A positive INTEGER from its big-endian bytes (a leading zero byte when the top bit is set). */
const integer = (bytes: Buffer) => der(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
/** A BIT STRING with no unused bits. */
const bits = (bytes: Buffer) => der(0x03, Buffer.concat([Buffer.from([0]), bytes]));
/** An explicit context-specific tag [n]. */
const explicit = (n: number, inner: Buffer) => der(0xa0 + n, inner);

/** An OBJECT IDENTIFIER from its dotted form. */
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const bytes = [40 * a + b];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let v = arc >> 7; v > 0; v >>= 7) base128.unshift((v & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}

/** UTCTime, YYMMDDHHMMSSZ (the years 1950 to 2049). */
const utcTime = (d: Date) => der(0x17, Buffer.from(`${d.toISOString().slice(2, 19).replace(/[-:T]/g, '')}Z`, 'ascii'));

const ECDSA_WITH_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const COMMON_NAME = '2.5.4.3';
const SUBJECT_ALT_NAME = '2.5.29.17';
const BASIC_CONSTRAINTS = '2.5.29.19';

/**
 * A self-signed certificate for 127.0.0.1 and localhost (EC P-256, ECDSA with SHA-256), valid
 * from an hour ago for a day, with a fresh key: no SDK can trust it but by not checking.
 */
export function untrustedCertificate(now = new Date()): TestCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = sequence(set(sequence(oid(COMMON_NAME), utf8('pay-conformance untrusted test certificate (127.0.0.1)'))));
  // subjectAltName: iPAddress [7] 127.0.0.1 and dNSName [2] localhost (implicit tags).
  const altNames = sequence(der(0x87, Buffer.from([127, 0, 0, 1])), der(0x82, Buffer.from('localhost', 'ascii')));
  const extensions = sequence(sequence(oid(BASIC_CONSTRAINTS), octets(sequence())), sequence(oid(SUBJECT_ALT_NAME), octets(altNames)));
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))), // v3
    integer(Buffer.concat([Buffer.from([0x01]), randomBytes(15)])),
    ECDSA_WITH_SHA256,
    name,
    sequence(utcTime(new Date(now.getTime() - 3_600_000)), utcTime(new Date(now.getTime() + 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, extensions),
  );
  const certificate = sequence(tbs, ECDSA_WITH_SHA256, bits(sign('sha256', tbs, privateKey)));
  const pem = certificate
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${pem}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}
