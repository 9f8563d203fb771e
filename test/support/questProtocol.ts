/**
 * A quest started over `/ws` against a server in another process, through the protocol alone: the
 * NPC found in the `world:update`s (its `ref` the NPC's id), talked to, and the quest's offer chosen.
 * For the tests that kill or hop the process the quest lives in (test/production/questCrash.test.ts,
 * test/cluster/hopQuest.test.ts).
 */
import assert from "node:assert/strict";
import type { WsTestClient } from "./wsClient.ts";

type Json = Record<string, unknown>;

/** The NPC's entity id, from the world updates received so far and to come. */
async function npcIdOf(client: WsTestClient, ref: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const update = await client.next("world:update", Math.max(1, deadline - Date.now()));
    const npc = (update.entities as Json[]).find((e) => e.kind === "npc" && e.ref === ref);
    if (npc !== undefined) return String(npc.id);
  }
}

/** Talks to the NPC and chooses the option reading `option`; returns the quest's first `quest:progress`. */
export async function startQuestOverWs(client: WsTestClient, npcRef: string, option: string): Promise<Json> {
  const npcId = await npcIdOf(client, npcRef);
  client.send("player:action", { action: "talk", targetId: npcId });
  const open = await client.next("dialogue:open", 10_000);
  const choice = (open.options as { id: string; text: string }[]).find((o) => o.text === option);
  assert.ok(choice, `"${option}" among ${JSON.stringify(open.options)}`);
  client.send("dialogue:choose", { optionId: choice.id });
  return client.next("quest:progress", 10_000);
}

/** The quest's entry of a `quest:list`. */
export function entryOf(list: Json, questId: string): Json | undefined {
  return (list.quests as Json[]).find((q) => q.id === questId);
}
