/**
 * `--spawn N`: demo agents on fresh anonymous accounts (anonymous mode only), up to five per
 * account (the server's character limit), each registered as an agent and played here. Their
 * owners' tokens are kept with them, so they survive a restart like any agent, and printed so
 * that a person can watch them in the dashboard.
 */
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { Runtime } from "./Runtime.ts";
import { ServerError, type ServerApi } from "./serverApi.ts";

export const AGENTS_PER_ACCOUNT = 5;

/** Retries a call the server rate-limited (429), waiting as it says. */
async function patiently<T>(call: () => Promise<T>, logger: Logger): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ServerError) || err.status !== 429 || attempt > 60) throw err;
      if (attempt === 0) logger.warn("the game server rate-limits these calls (start it with DISABLE_RATE_LIMIT=true to spawn many agents fast); waiting");
      await new Promise((r) => setTimeout(r, 6_000));
    }
  }
}

/** The dashboard of an owner's account: the game server's `/agents`, with its token (client/src/dashboard: `#owner=`). */
export function ownerLink(gameUrl: string, ownerToken: string): string {
  return `${gameUrl.replace(/\/+$/, "")}/agents#owner=${encodeURIComponent(ownerToken)}`;
}

/** `gameUrl`: where browsers reach the game server (its dashboard is at /agents). */
export async function spawnDemoAgents(deps: { api: ServerApi; runtime: Runtime; count: number; logger: Logger; gameUrl: string }): Promise<void> {
  const { api, runtime, count, logger } = deps;
  const run = randomBytes(2).toString("hex");
  let made = 0;
  const owners: string[] = [];
  while (made < count) {
    const auth = await patiently(() => api.call<{ token: string; accountId: string }>("POST", "/api/auth/anonymous", undefined), logger);
    owners.push(auth.token);
    for (let i = 0; i < AGENTS_PER_ACCOUNT && made < count; i++, made++) {
      const name = `Bot${run}-${made + 1}`;
      const character = await patiently(() => api.call<{ character: { id: string } }>("POST", "/api/character", auth.token, { name }), logger);
      const reg = await patiently(
        () => api.call<{ agent: { agentId: string }; token: string }>("POST", "/api/agent", auth.token, { characterId: character.character.id, name }),
        logger,
      );
      runtime.play({
        agentId: reg.agent.agentId,
        token: reg.token,
        characterId: character.character.id,
        name,
        ownerAccountId: auth.accountId,
        running: true,
        ownerToken: auth.token,
      });
    }
  }
  const links = owners.map((t) => ownerLink(deps.gameUrl, t));
  logger.info(
    { agents: made, ownerTokens: owners },
    `spawned ${made} demo agents; watch them in the dashboard (a link shows one owner's agents, up to ${AGENTS_PER_ACCOUNT}): ${links.join(" ")}`,
  );
}
