// Types of redis.mjs.
import type { ChildProcess } from 'node:child_process';

export declare const REDIS_SERVER: string;
/** True when redis-server is installed. */
export declare const redisAvailable: boolean;

export interface RunningRedis {
  port: number;
  process: ChildProcess;
  /** Kills the server and resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts redis-server on a free port and resolves when it accepts connections. */
export declare function startRedis(): Promise<RunningRedis>;
