// The sandbox's clock as the journal's (SHOP_SANDBOX_CLOCK=1): moving the sandbox's clock on its
// dashboard makes the reconciler's lookups and the journal's leases due, as hours passing would
// against the real service. The sandbox runs in another process, so its time is read over HTTP
// (`GET /_sandbox/clock`) and kept as an offset from this machine's, read again every `everyMs`:
// a move of the sandbox's clock reaches the journal within that time. Waits stay real.
import { type Clock, systemClock } from '@pay/clock';
import { sandboxAdmin } from '@pay/sandbox/admin';
import { parseDateTime } from '@pay/schema';

/** A clock that follows the sandbox's, until `stop()`. */
export interface SandboxClock {
  readonly clock: Clock;
  /** Stops reading the sandbox's clock (the clock keeps the last offset). */
  stop(): void;
}

/** Follows the clock of the sandbox at `baseUrl`, read now and every `everyMs`. */
export async function followSandboxClock(baseUrl: string, everyMs: number): Promise<SandboxClock> {
  const admin = sandboxAdmin(baseUrl, { timeoutMs: 10_000 });
  let offsetMs = 0;
  let stopped = false;
  let cancel = () => {};
  // Service datetimes are UTC without an offset (`2025-05-01T12:30:45.123000`): read as UTC. A
  // read that fails keeps the last offset; the next one tries again.
  const read = () =>
    admin.clock().then(
      ({ now }) => {
        offsetMs = parseDateTime(now).getTime() - Date.now();
      },
      () => {},
    );
  const again = () => {
    if (stopped) return;
    cancel = systemClock.alarm(everyMs, () => void read().then(again), { unref: true, loop: true });
  };
  await read();
  again();
  return {
    clock: Object.freeze({ ...systemClock, now: () => Date.now() + offsetMs }),
    stop: () => {
      stopped = true;
      cancel();
    },
  };
}
