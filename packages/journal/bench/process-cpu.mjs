// CPU time of the processes a benchmark runs beside it, read from Linux's /proc: this process's,
// a child's, and a PostgreSQL cluster's (its postmaster and every backend it forked). CPU time per
// operation is steadier than throughput on a shared machine, and it says which process pays.

import { readdirSync, readFileSync } from 'node:fs';

/** A process's parent and CPU seconds so far (NaN seconds elsewhere than Linux, or once it is gone). */
export function processStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { parent: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / 100 };
  } catch {
    return { parent: -1, seconds: Number.NaN };
  }
}

const pids = () => readdirSync('/proc').filter((d) => /^\d+$/.test(d));

/** The postmaster listening on `port` (found by its command line: other clusters may run beside it), or -1. */
export function findPostmaster(port) {
  for (const pid of pids()) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args[0]?.endsWith('/postgres') && args.includes('-p') && args[args.indexOf('-p') + 1] === String(port)) return Number(pid);
    } catch {}
  }
  return -1;
}

/** CPU seconds so far of the cluster whose postmaster is `postmaster` and of its backends (0 without one). */
export function clusterSeconds(postmaster) {
  if (postmaster === -1) return 0;
  let seconds = processStat(postmaster).seconds;
  for (const pid of pids()) {
    const p = processStat(pid);
    if (p.parent === postmaster) seconds += p.seconds;
  }
  return seconds;
}
