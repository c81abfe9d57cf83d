// A port already in use: `startSandbox` rejects with a typed error (code EADDRINUSE, recognised by
// its brand) that says the port and whether a payments sandbox answers there, found out with one
// request on loopback bounded by a short timeout; `pay-sandbox` says so in one line and exits 1
// (the machine's state, not a usage error). Before, startSandbox threw Node's raw listen error and
// the command line printed "port N is in use (try --port 0)" with the usage error's exit code 2.
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { isSandboxPortInUseError, type SandboxPortInUseError, startSandbox } from '../src/index.js';
import { runToEnd } from './process.js';

const portOf = (server: Server) => (server.address() as AddressInfo).port;
const refusal = (port: number) =>
  startSandbox({ port }).then(
    (sandbox) => {
      void sandbox.close();
      throw new Error(`a sandbox started on port ${port}, which is taken`);
    },
    (error: unknown) => error as SandboxPortInUseError,
  );

const running = await startSandbox();
const runningPort = Number(new URL(running.url).port);
// Another program: an HTTP server that is not a sandbox.
const other = createHttpServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('not here'));
await once(other.listen(0, '127.0.0.1'), 'listening');
// A program that takes connections and never answers.
const sockets: Socket[] = [];
const silent = createTcpServer((socket) => sockets.push(socket));
await once(silent.listen(0, '127.0.0.1'), 'listening');
afterAll(async () => {
  await running.close();
  other.close();
  for (const socket of sockets) socket.destroy();
  silent.close();
});

describe('startSandbox on a port in use', () => {
  it('a sandbox there: a typed error with code EADDRINUSE that says one answers, and where', async () => {
    const error = await refusal(runningPort);
    expect(isSandboxPortInUseError(error)).toBe(true);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'SandboxPortInUseError',
      code: 'EADDRINUSE',
      port: runningPort,
      host: '127.0.0.1',
      sandboxAnswers: true,
      url: running.url,
    });
    expect(error.message).toBe(
      `port ${runningPort} on 127.0.0.1 is in use: a payments sandbox already answers there (${running.url}/_sandbox/); use it, stop it, or start this one on another port (0 picks a free one)`,
    );
    expect((error.cause as { code?: string }).code).toBe('EADDRINUSE'); // Node's own error, kept
  });

  it('another HTTP server there: sandboxAnswers false', async () => {
    const error = await refusal(portOf(other));
    expect(error).toMatchObject({ code: 'EADDRINUSE', sandboxAnswers: false, port: portOf(other) });
    expect(error.message).toContain('another program listens there (no payments sandbox answers)');
  });

  it('a program that never answers: sandboxAnswers false, within the short timeout', async () => {
    const started = performance.now();
    const error = await refusal(portOf(silent));
    expect(error).toMatchObject({ code: 'EADDRINUSE', sandboxAnswers: false });
    expect(performance.now() - started).toBeLessThan(5_000); // the probe's 1 s, and the machine's load
  });

  it('the brand recognises the error, not any error with the code', () => {
    expect(isSandboxPortInUseError(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }))).toBe(false);
    expect(isSandboxPortInUseError({ code: 'EADDRINUSE', sandboxAnswers: true })).toBe(false);
  });
});

describe('pay-sandbox on a port in use', () => {
  it('a sandbox there: exit 1, one line saying one is already running there and how to use it', async () => {
    const done = await runToEnd(['--port', String(runningPort)]);
    expect(done.code).toBe(1);
    expect(done.stdout).toBe('');
    expect(done.stderr).toBe(
      `pay-sandbox: port ${runningPort} is in use: a payments sandbox is already running there (${running.url}/_sandbox/). Use it (the commands reach it with --url ${running.url}), stop it (Ctrl-C where it runs), or start another with --port 0 (a free port)\n`,
    );
  });

  it('another program there: exit 1, saying it is not a sandbox', async () => {
    const done = await runToEnd(['--port', String(portOf(other)), '--quiet']);
    expect(done.code).toBe(1);
    expect(done.stderr).toBe(
      `pay-sandbox: port ${portOf(other)} is in use by another program (no payments sandbox answers there): stop it, or start with --port 0 (a free port) or another --port\n`,
    );
  });
});
