// Ctrl-C (SIGINT) and SIGTERM stop cleanly: close what runs, then exit 0. A second signal while
// closing exits at once (1), for a close that hangs.
export function stopOnSignals(name: string, close: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      process.stdout.write(`${name}: ${signal}, stopping\n`);
      close().then(
        () => {
          process.stdout.write(`${name}: stopped\n`);
          process.exit(0);
        },
        (error: unknown) => {
          process.stderr.write(`${name}: could not stop cleanly: ${String(error)}\n`);
          process.exit(1);
        },
      );
    });
  }
}
