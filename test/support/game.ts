/**
 * A gameplay world for tests: the bundled content, the real gameplay phases, a seeded random
 * source and a clock the test controls. Commands go through the same validation as clients', and
 * every message the world sends is checked against the server events table.
 */
import assert from "node:assert/strict";
import { inputHandlers, validateEvent } from "../../src/game/events.ts";
import { GAMEPLAY } from "../../src/game/systems.ts";
import type { ItemStack, Player, PlayerData } from "../../src/game/world/Player.ts";
import { seededRandom, TICK_MS, World, type OutboundMessage } from "../../src/game/world/World.ts";
import { checkServerEvent } from "../../src/game/serverEvents.ts";
import { bundledContent } from "./content.ts";
import type { ContentRegistry } from "../../src/manifests/registry.ts";
import { playerData } from "./players.ts";

export interface GameHarness {
  world: World;
  clock: { now: number };
  /** Everything sent to players so far (drained from the world's outbox each tick). */
  sent: OutboundMessage[];
  add(over?: Partial<PlayerData>, items?: (ItemStack | null)[]): Player;
  /** Validates like a transport, then queues; throws if validation refuses. */
  send(player: Player, type: string, data: unknown): void;
  /** Validation outcome only (for bad-input tests). */
  validate(type: string, data: unknown): ReturnType<typeof validateEvent>;
  tick(n?: number): void;
  errors(player: Player): { code: string; message: string; event?: string }[];
  events(player: Player, type: string): Record<string, unknown>[];
  clearSent(): void;
  /**
   * There is no database here: after each tick, players' drops count as stored (as if every
   * dropper's save committed at once). True keeps them pending, as while a save is under way.
   */
  holdSaves: boolean;
}

/** A world of the bundled content (or the content given: the real set, test/support/fixtureContent.ts). */
export async function gameWorld(seed = 42, given?: ContentRegistry): Promise<GameHarness> {
  const content = given ?? (await bundledContent());
  const clock = { now: 1_700_000_000_000 };
  const world = new World({
    content,
    now: () => clock.now,
    random: seededRandom(seed),
    systems: GAMEPLAY,
    handlers: inputHandlers({ checkAdminCode: () => "wrong" }),
  });
  const sent: OutboundMessage[] = [];
  const harness: GameHarness = {
    holdSaves: false,
    world,
    clock,
    sent,
    add(over = {}, items = []) {
      // Auto Retaliate off unless a test asks for it (retaliate.test.ts): the rules under test here
      // are the player's own actions, and a monster's hit would otherwise start a fight back.
      const data = playerData({ autoRetaliate: false, ...over });
      items.forEach((s, i) => (data.inventory[i] = s));
      return world.addPlayer(data);
    },
    send(player, type, data) {
      const v = validateEvent(type, data);
      assert.ok(v.ok, `${type} ${JSON.stringify(data)} refused: ${JSON.stringify(v)}`);
      world.enqueue(player.id, type, v.data);
    },
    validate: (type, data) => validateEvent(type, data),
    tick(n = 1) {
      for (let i = 0; i < n; i++) {
        clock.now += TICK_MS;
        world.step();
        if (!harness.holdSaves) world.groundStored([...world.groundItems.values()].flatMap((g) => (g.persist === "pending" ? [g.id] : [])));
        for (const m of world.drainOutbox()) {
          const problem = checkServerEvent(m.type, m.data);
          assert.equal(problem, undefined, `the world sent an event that does not fit serverEvents.ts: ${problem}`);
          sent.push(m);
        }
      }
    },
    errors: (player) => sent.filter((m) => m.to === player.id && m.type === "error").map((m) => m.data as { code: string; message: string }),
    events: (player, type) => sent.filter((m) => m.to === player.id && m.type === type).map((m) => m.data as Record<string, unknown>),
    clearSent: () => sent.splice(0),
  };
  return harness;
}

/** Every item the player holds, banks and has on the ground near it, by item id (coins included). */
export function holdings(world: World, player: Player): Map<string, number> {
  const out = new Map<string, number>();
  const add = (id: string, q: number) => out.set(id, (out.get(id) ?? 0) + q);
  for (const s of player.data.inventory) if (s) add(s.itemId, s.quantity);
  for (const s of player.data.bank) add(s.itemId, s.quantity);
  for (const s of Object.values(player.data.equipment)) add(s.itemId, s.quantity);
  for (const g of world.groundItems.values()) add(g.itemId, g.quantity);
  if (player.data.coins > 0) add("coins", player.data.coins);
  return out;
}

export function count(player: Player, itemId: string): number {
  return player.data.inventory.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
}

/** The id of the placed resource of a node type nearest a tile. */
export function resourceNear(world: World, nodeId: string, at: { x: number; z: number }): { id: string; x: number; z: number } {
  let best: { id: string; x: number; z: number } | undefined;
  let bestD = Infinity;
  for (const r of world.resources.values()) {
    if (r.node.id !== nodeId) continue;
    const d = Math.max(Math.abs(r.x - at.x), Math.abs(r.z - at.z));
    if (d < bestD) {
      best = r;
      bestD = d;
    }
  }
  assert.ok(best, `no ${nodeId} placed`);
  return best;
}

/** A walkable tile next to a position. */
export function besideTile(world: World, at: { x: number; z: number }): { x: number; z: number } {
  for (const [dx, dz] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [1, 1],
    [-1, -1],
    [1, -1],
    [-1, 1],
  ] as const) {
    if (world.collision.isWalkable(at.x + dx, at.z + dz)) return { x: at.x + dx, z: at.z + dz };
  }
  throw new Error(`no walkable tile next to ${at.x},${at.z}`);
}
