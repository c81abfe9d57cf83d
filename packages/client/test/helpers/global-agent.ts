// Sets a global agent for the length of a test, as a proxy tool or a merchant's own setup would:
// the client on Node reads `http.globalAgent` and `https.globalAgent` at each request.
import type { Agent } from 'node:http';

/** Runs `body` with `agent` as `module.globalAgent`, then puts the original back and closes `agent`. */
export async function withGlobalAgent<T>(module: { globalAgent: Agent }, agent: Agent, body: () => Promise<T>): Promise<T> {
  const original = module.globalAgent;
  module.globalAgent = agent;
  try {
    return await body();
  } finally {
    module.globalAgent = original;
    agent.destroy();
  }
}
