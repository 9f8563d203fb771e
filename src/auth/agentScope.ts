/**
 * What an agent's token may do. An agent plays as its character: it moves, chats, trades, messages
 * its friends, reads what its character needs and steers its own goals. The account is its
 * owner's: its characters, its agents, its friends and ignore lists. Those are refused to an
 * agent's token with {@link AGENT_TOKEN_FORBIDDEN} (REST 403, an `error` on the sockets), a code of
 * its own so that a client can tell "use the owner's token" from "not yours" (FORBIDDEN).
 * Which REST route is which: src/http/agentScope.ts; which client event: src/game/eventScopes.ts.
 */
import type { Principal } from "./tokens.ts";

export const AGENT_TOKEN_FORBIDDEN = "AGENT_TOKEN_FORBIDDEN";

/** A token scoped to one character (an agent's), not one of the account as a whole. */
export function isAgentToken(p: Principal): boolean {
  return p.agentId !== undefined || p.characterId !== undefined;
}
