/// <reference types="node" />
// Whose process is at the other end of a loopback connection.
//
// Every account of a machine may connect to 127.0.0.1, so a loopback peer is not proof that the
// developer is the caller: on a shared machine (a university server, a CI runner with several
// users, a dev box with a service account) another account could read the sandbox's transactions
// or move its clock. Linux says which account owns each socket, in /proc/net/tcp and tcp6: the
// peer's end of our connection is the row whose local address and port are the peer's and whose
// remote address and port are ours, and its uid column is the account that opened it. The admin
// area takes a peer for the developer's only when that account is the sandbox's own (or root,
// which can read the sandbox's memory anyway).
//
// Elsewhere (macOS, Windows) there is no such table: the answer is "unknown", and the sandbox
// keeps to loopback as the proof, which the security page lists as left to the deployment.
import { readFileSync } from 'node:fs';
import { endianness } from 'node:os';

/** Whose the peer is: this account's (or root's), another account's, or not known on this platform. */
export type PeerAccount = 'same' | 'other' | 'unknown';

/** One end of a TCP connection, as Node reports it (`socket.remoteAddress`, `remotePort`...). */
export interface Endpoint {
  address: string;
  port: number;
}

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'] as const;
// TIME_WAIT rows are the kernel's, not a process's: their uid column says 0 whoever closed them.
const TIME_WAIT = '06';
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * Which account owns the peer's end of the connection `peer` → `local` (both loopback). Reads the
 * kernel's socket tables once per call; `read` stands in for them in unit tests.
 */
export function peerAccount(peer: Endpoint, local: Endpoint, read: (path: string) => string | undefined = readTable): PeerAccount {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid === undefined) return 'unknown';
  const want = { local: canonicalAddress(peer.address), remote: canonicalAddress(local.address) };
  let anyTable = false;
  for (const path of TABLES) {
    const text = read(path);
    if (text === undefined) continue;
    anyTable = true;
    for (const line of text.split('\n')) {
      const owner = ownerOf(line, peer.port, local.port, want);
      if (owner !== undefined) return owner === uid || owner === 0 ? 'same' : 'other';
    }
  }
  // On Linux a connection being served has a row; none found (closed meanwhile) proves nothing.
  return anyTable ? 'other' : 'unknown';
}

/** The uid of a table row that is the peer's end of the connection, if this row is it. */
function ownerOf(line: string, peerPort: number, localPort: number, want: { local: string; remote: string }): number | undefined {
  const columns = line.trim().split(/\s+/);
  // sl local_address rem_address st tx:rx tr:when retrnsmt uid ...
  if (columns.length < 8 || columns[3] === TIME_WAIT) return undefined;
  const local = splitEndpoint(columns[1]!);
  const remote = splitEndpoint(columns[2]!);
  if (local === undefined || remote === undefined) return undefined;
  if (local.port !== peerPort || remote.port !== localPort) return undefined;
  if (local.address !== want.local || remote.address !== want.remote) return undefined;
  const uid = Number(columns[7]);
  return Number.isSafeInteger(uid) ? uid : undefined;
}

/** `0100007F:1F90` → 127.0.0.1 and 8080: the address in the kernel's byte order, the port in hex. */
function splitEndpoint(text: string): Endpoint | undefined {
  const at = text.indexOf(':');
  if (at < 0) return undefined;
  const hex = text.slice(0, at);
  const port = Number.parseInt(text.slice(at + 1), 16);
  if (!Number.isInteger(port)) return undefined;
  if (hex.length === 8) return { address: bytesToAddress(word(hex)), port };
  if (hex.length === 32) {
    const bytes = [0, 8, 16, 24].flatMap((i) => word(hex.slice(i, i + 8)));
    return { address: bytesToAddress(bytes), port };
  }
  return undefined;
}

/** Four bytes of a 32-bit word written in hex in the kernel's (the machine's) byte order. */
function word(hex: string): number[] {
  const bytes = [0, 2, 4, 6].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return LITTLE_ENDIAN ? bytes.reverse() : bytes;
}

/** An address in one spelling: dotted IPv4 (also for IPv4-mapped IPv6), else 8 hex groups. */
function bytesToAddress(bytes: readonly number[]): string {
  if (bytes.length === 4) return bytes.join('.');
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (mapped) return bytes.slice(12).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}

/** Node's spelling of an address (`::ffff:127.0.0.1`, `::1`, `127.0.0.1`) in the form above. */
export function canonicalAddress(address: string): string {
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (mapped !== null) return mapped[1]!;
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(lower)) return lower;
  // Expand an IPv6 address with `::` into its eight groups, each without leading zeros.
  const [head = '', tail] = lower.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array(Math.max(0, 8 - left.length - right.length)).fill('0');
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16).toString(16)).join(':');
}

function readTable(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}
