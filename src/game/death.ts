/**
 * Player death (documented rule): at 0 health the player keeps its equipment and its three most
 * valuable inventory stacks (by the item's value); everything else drops where it died, seen by
 * the dead player alone for a minute, then by everyone. It respawns at once at the spawn point
 * with full health.
 *
 * The death lock: a `playerDeaths` row (unique id per death) is written in the same transaction
 * as the post-death state and the dropped items' ground rows, and the player is saved at once. A
 * crash before that save reloads the pre-death state (no ground rows); a crash after it reloads
 * the post-death state with the drops on the ground; a retried save re-inserts nothing. Either way
 * no item exists twice.
 *
 * A player killed while its trade's swap is being stored dies when the trade has ended (stored or
 * rolled back), with the inventory it holds then: the death is never skipped.
 */
import { randomUUID } from "node:crypto";
import { spawnGroundItem } from "./groundItems.ts";
import { transact } from "./inventory.ts";
import { endPrayers } from "./prayer.ts";
import type { Player } from "./world/Player.ts";
import type { World } from "./world/World.ts";

export const KEPT_ON_DEATH = 3;

/** Runs the death that waited for the player's trade to be stored (see killPlayer), if any. */
export function dieAfterTrade(world: World, player: Player): void {
  if (player.deathAfterTrade === undefined) return;
  const { killedBy } = player.deathAfterTrade;
  player.deathAfterTrade = undefined;
  killPlayer(world, player, killedBy);
}

export function killPlayer(world: World, player: Player, killedBy: string | null): void {
  // A trade's swap is being stored and these items may not change until it is: the player stays
  // at 0 health for those ticks and dies when the trade ends, with what it holds then (dieAfterTrade).
  if (player.tradeCommitting) {
    player.deathAfterTrade ??= { killedBy };
    return;
  }
  world.trades.cancelFor(world, player.id, "died");
  const content = world.content;
  const value = (slot: number) => {
    const s = player.data.inventory[slot]!;
    return content.item(s.itemId)?.value ?? 0;
  };
  const occupied = player.data.inventory.flatMap((s, i) => (s === null ? [] : [i]));
  const kept = new Set([...occupied].sort((a, b) => value(b) - value(a) || a - b).slice(0, KEPT_ON_DEATH));
  const at = { x: player.x, z: player.z };
  const r = transact(player, content, (tx) => occupied.filter((slot) => !kept.has(slot)).map((slot) => tx.inv.removeFromSlot(slot)));
  const dropped = r.ok ? r.value : [];
  for (const stack of dropped) spawnGroundItem(world, stack.itemId, stack.quantity, at, player.id, player);
  player.pendingDeaths.push({
    // Unique across restarts (the tick counter starts again at 0): the id is the death's lock row.
    id: randomUUID(),
    x: at.x,
    z: at.z,
    killedBy,
    items: [
      ...dropped.map((s) => ({ itemId: s.itemId, quantity: s.quantity, outcome: "dropped" as const })),
      ...[...kept].map((slot) => ({ ...player.data.inventory[slot]!, outcome: "kept" as const })),
    ],
    diedAt: world.now(),
  });
  for (const npc of world.npcs.values()) {
    if (npc.targetId === player.id) npc.targetId = undefined;
    if (npc.foe?.id === player.id) npc.foe = undefined;
  }
  player.foe = undefined;
  player.attackedBy = undefined;
  player.data.health = player.maxHealth;
  endPrayers(player);
  // Through teleport(), which also moves the player in the world's spatial index: assigned
  // directly, the player stayed listed at the death's cell, so the views around the spawn (the
  // player's own included) lost it until it walked. A spawn that is not walkable (a content error)
  // is still where the player goes, as before.
  const spawn = content.world.spawn;
  if (!world.teleport(player, { x: spawn.x, z: spawn.z })) {
    player.place(spawn.x, spawn.z);
  }
  player.path = [];
  player.moveTarget = undefined;
  player.action = undefined;
  player.running = false;
  player.publicVersion++;
  player.syncDue = true;
  player.saveDue = true;
  world.requestSave(player);
  world.send(player.id, "player:death", { killedBy, position: { ...at }, respawn: { x: player.x, y: player.data.y, z: player.z } });
}
