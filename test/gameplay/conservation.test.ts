import assert from "node:assert/strict";
import fc from "fast-check";
import { besideTile, gameWorld, holdings, resourceNear } from "../support/game.ts";

const BANK = { x: 3, z: -3 };
const STORE = { x: -3, z: -4 };
const STORE_ID = "brackenford_general";

type Command =
  | { t: "gather" }
  | { t: "drop"; slot: number }
  | { t: "pickup"; pick: number }
  | { t: "deposit"; slot: number; quantity: number }
  | { t: "withdraw"; pick: number; quantity: number }
  | { t: "buy"; pick: number; quantity: number }
  | { t: "sell"; slot: number; quantity: number };

const quantity = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom(1, 2, 50, 2 ** 31 - 1));
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.constant({ t: "gather" as const }),
  fc.record({ t: fc.constant("drop" as const), slot: fc.integer({ min: 0, max: 27 }) }),
  fc.record({ t: fc.constant("pickup" as const), pick: fc.nat(30) }),
  fc.record({ t: fc.constant("deposit" as const), slot: fc.integer({ min: 0, max: 27 }), quantity }),
  fc.record({ t: fc.constant("withdraw" as const), pick: fc.nat(10), quantity }),
  fc.record({ t: fc.constant("buy" as const), pick: fc.nat(20), quantity }),
  fc.record({ t: fc.constant("sell" as const), slot: fc.integer({ min: 0, max: 27 }), quantity }),
);

function diff(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const d = (after.get(id) ?? 0) - (before.get(id) ?? 0);
    if (d !== 0) out[id] = d;
  }
  return out;
}

describe("item conservation (property)", function () {
  this.timeout(120_000);

  it("random gathering, dropping, picking up, banking, buying and selling create and destroy exactly what the rules say", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 1_000_000 }), async (commands, seed) => {
        const g = await gameWorld(seed);
        const w = g.world;
        const tree = resourceNear(w, "tree_normal", { x: 0, z: 0 });
        const store = w.content.stores.get(STORE_ID)!;
        const p = g.add({ coins: 500 }, [{ itemId: "bronze_hatchet", quantity: 1 }, { itemId: "bread", quantity: 1 }, { itemId: "feathers", quantity: 10 }]);
        for (const cmd of commands) {
          const before = holdings(w, p);
          g.clearSent();
          let expected: Record<string, number> = {};
          switch (cmd.t) {
            case "gather":
              w.teleport(p, besideTile(w, tree));
              g.send(p, "player:action", { action: "gather", targetId: tree.id });
              g.tick(6);
              break;
            case "drop":
              g.send(p, "player:action", { action: "drop", slot: cmd.slot });
              g.tick();
              break;
            case "pickup": {
              const items = [...w.groundItems.values()];
              if (items.length === 0) continue;
              const item = items[cmd.pick % items.length]!;
              w.teleport(p, { x: item.x, z: item.z });
              g.send(p, "player:action", { action: "pickup", targetId: item.id });
              g.tick();
              break;
            }
            case "deposit":
              w.teleport(p, BANK);
              g.send(p, "bank:deposit", { slot: cmd.slot, quantity: cmd.quantity });
              g.tick();
              break;
            case "withdraw": {
              if (p.data.bank.length === 0) continue;
              w.teleport(p, BANK);
              g.send(p, "bank:withdraw", { itemId: p.data.bank[cmd.pick % p.data.bank.length]!.itemId, quantity: cmd.quantity });
              g.tick();
              break;
            }
            case "buy": {
              const entry = store.items[cmd.pick % store.items.length]!;
              w.teleport(p, STORE);
              g.send(p, "store:buy", { storeId: STORE_ID, itemId: entry.itemId, quantity: cmd.quantity });
              g.tick();
              if (g.errors(p).length === 0) expected = { [entry.itemId]: cmd.quantity, coins: -entry.price * cmd.quantity };
              break;
            }
            case "sell": {
              const stack = p.data.inventory[cmd.slot];
              w.teleport(p, STORE);
              g.send(p, "store:sell", { storeId: STORE_ID, slot: cmd.slot, quantity: cmd.quantity });
              g.tick();
              if (g.errors(p).length === 0 && stack) {
                const pay = Math.floor(w.content.item(stack.itemId)!.value * store.buybackRate) * cmd.quantity;
                expected = { [stack.itemId]: -cmd.quantity, ...(pay > 0 ? { coins: pay } : {}) };
              }
              break;
            }
          }
          // Each successful chop is announced with woodcutting xp and yields one log; a gather
          // action goes on after its command, so chops can land during any later command.
          const chops = g.events(p, "skill:xp").filter((e) => e.skill === "woodcutting").length;
          if (chops > 0) expected = { ...expected, logs: (expected.logs ?? 0) + chops };
          const actual = diff(before, holdings(w, p));
          assert.deepEqual(actual, expected, `${JSON.stringify(cmd)} errors=${JSON.stringify(g.errors(p))}`);
          assert.ok(p.data.coins >= 0 && Number.isSafeInteger(p.data.coins));
          for (const s of p.data.inventory) if (s) assert.ok(s.quantity >= 1 && s.quantity <= 2 ** 31 - 1);
        }
      }),
      { numRuns: 200 },
    );
  });
});
