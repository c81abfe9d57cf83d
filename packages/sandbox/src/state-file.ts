/// <reference types="node" />
// The Node host's state file: read and checked at start (a state file decides where webhooks go,
// so one another account could have written is refused), and written back while the state
// changes, atomically.
import { constants } from 'node:fs';
import { type FileHandle, open, rename, rm, writeFile } from 'node:fs/promises';
import { parseSnapshot, takeSnapshot } from './snapshot.js';
import type { State } from './state.js';

/** How often a changed state is written to the state file, in ms. */
export const STATE_SAVE_INTERVAL_MS = 2_000;

/** The code of the TypeError for a state file or seed that is refused (the command line exits 1 on it). */
export const FILE_REFUSED = 'ERR_PAY_SANDBOX_FILE';

export function fileRefused(error: unknown): never {
  throw Object.assign(new TypeError(error instanceof Error ? error.message : 'the file cannot be used'), { code: FILE_REFUSED });
}

/** The largest state file read: far above a full sandbox's (about 105 MiB at worst, see the README). */
const MAX_STATE_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Reads and checks a state file. It is opened once, without following a link, checked on that
 * handle and read from it: a state file decides where webhooks go, so one that another account
 * could have written or swapped in (a shared directory such as /tmp) is refused, never loaded.
 * @throws TypeError saying what is wrong with it.
 */
export async function loadState(file: string) {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO planted under the name must not hang the start.
    handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ELOOP') throw new TypeError(`state file ${file} is a symbolic link: give the path of the file itself`);
    throw new TypeError(`state file ${file} cannot be read (${code ?? 'error'})`);
  }
  let text: string;
  try {
    const wrong = notTheDevelopers(await handle.stat());
    if (wrong !== undefined) throw new TypeError(`state file ${file} ${wrong}`);
    text = await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof TypeError) throw error;
    throw new TypeError(`state file ${file} cannot be read (${(error as { code?: string }).code ?? 'error'})`);
  } finally {
    await handle.close();
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Where the JSON breaks, never V8's own message: it quotes the text, which holds customers'
    // names, e-mails and webhook URLs.
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    throw new TypeError(`state file ${file} cannot be read as JSON${position === undefined ? '' : ` (error at character ${position})`}`);
  }
  return parseSnapshot(value);
}

/**
 * Why a state file's handle is not the developer's alone, if it is not: not a regular file, owned
 * by another account (root's is fine: no other account could have written it), writable by its
 * group or others, or larger than any state. The sandbox writes its state files 0600, so a file
 * that fails here was written or changed by someone else. Where no account can be compared
 * (Windows: no process.getuid), only the kind and size are checked.
 */
function notTheDevelopers(info: { isFile(): boolean; uid: number; mode: number; size: number }): string | undefined {
  if (!info.isFile()) return 'is not a regular file';
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid && info.uid !== 0) {
    return `belongs to another account (uid ${info.uid}, not ${uid}): another account may have written it; give a state file of your own`;
  }
  if (uid !== undefined && (info.mode & 0o022) !== 0) {
    return `is writable by its group or by others (mode ${(info.mode & 0o777).toString(8)}): anyone who could write it decides where webhooks go; chmod 600 it`;
  }
  if (info.size > MAX_STATE_FILE_BYTES) return `is larger than ${MAX_STATE_FILE_BYTES} bytes: not a sandbox state`;
  return undefined;
}

/**
 * Writes the state to its file whenever it changed, at most every STATE_SAVE_INTERVAL_MS, through
 * a temporary file renamed over the old one: a crash mid-write leaves the previous state whole.
 * The interval is real time whatever the sandbox's clock: housekeeping of a file, not business time.
 */
export class Saver {
  #savedVersion = -1;
  #writing: Promise<void> = Promise.resolve();
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(
    readonly state: State,
    readonly file: string,
    readonly log: ((line: string) => void) | undefined,
  ) {
    this.#timer = setInterval(() => void this.save(), STATE_SAVE_INTERVAL_MS);
    this.#timer.unref();
    void this.save();
  }

  /** Writes the state if it changed since the last write (writes never overlap). */
  save(): Promise<void> {
    this.#writing = this.#writing.then(async () => {
      const version = this.state.version;
      if (version === this.#savedVersion) return;
      const temporary = `${this.file}.${process.pid}.tmp`;
      try {
        // Readable by the developer alone (it holds customers' names and e-mails and webhook
        // URLs): a new file made 0600, which the rename keeps; one left by a crash is replaced.
        await rm(temporary, { force: true });
        await writeFile(temporary, JSON.stringify(takeSnapshot(this.state)), { mode: 0o600, flag: 'wx' });
        await rename(temporary, this.file);
        this.#savedVersion = version;
      } catch (error) {
        // The next tick tries again; a state file is a convenience, never a reason to stop serving.
        this.log?.(`state file ${this.file} not written: ${(error as { code?: string }).code ?? 'error'}`);
      }
    });
    return this.#writing;
  }

  /** Stops the timer and writes the state one last time. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.save();
  }
}
