import assert from "node:assert/strict";
import fc from "fast-check";
import { BANK_SIZE, MAX_STACK } from "../../src/game/inventory.ts";
import { purchaseCost, saleValue } from "../../src/game/store.ts";
import type { Player } from "../../src/game/world/Player.ts";
import type { World } from "../../src/game/world/World.ts";
import { besideTile, gameWorld, resourceNear } from "../support/game.ts";

const BANK = { x: 3, z: -3 };
const STORE = { x: -3, z: -4 };
const STORE_ID = "brackenford_general";

type Command =
  | { t: "gather" }
  | { t: "drop"; slot: number }
  | { t: "pickup"; pick: number }
  | { t: "deposit"; slot: number; quantity: number }
  | { t: "withdraw"; pick: number; quantity: number | "all" }
  | { t: "buy"; pick: number; quantity: number }
  | { t: "sell"; slot: number; quantity: number };

const quantity = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom(1, 2, 50, 2 ** 31 - 1));
// Mostly the first slots, where the kit and new items are, so most commands have something to
// move (a slot picked from all 28 is usually empty and the command refused).
const slot = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 27 }));
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.constant({ t: "gather" as const }),
  fc.record({ t: fc.constant("drop" as const), slot }),
  fc.record({ t: fc.constant("pickup" as const), pick: fc.nat(30) }),
  fc.record({ t: fc.constant("deposit" as const), slot, quantity }),
  fc.record({ t: fc.constant("withdraw" as const), pick: fc.nat(10), quantity: fc.oneof(quantity, fc.constant("all" as const)) }),
  fc.record({ t: fc.constant("buy" as const), pick: fc.nat(20), quantity }),
  fc.record({ t: fc.constant("sell" as const), slot, quantity }),
);

/** Where the player's items are: each place on its own, so a move shows as one minus and one plus. */
interface Places {
  inventory: Map<string, number>;
  bank: Map<string, number>;
  ground: Map<string, number>;
  coins: number;
  equipment: string;
}

function places(w: World, p: Player): Places {
  const bag = (stacks: Iterable<{ itemId: string; quantity: number } | null>) => {
    const out = new Map<string, number>();
    for (const s of stacks) if (s) out.set(s.itemId, (out.get(s.itemId) ?? 0) + s.quantity);
    return out;
  };
  return {
    inventory: bag(p.data.inventory),
    bank: bag(p.data.bank),
    ground: bag(w.groundItems.values()),
    coins: p.data.coins,
    equipment: JSON.stringify(p.data.equipment),
  };
}

type Delta = { inventory?: Record<string, number>; bank?: Record<string, number>; ground?: Record<string, number>; coins?: number };

function delta(before: Places, after: Places): Delta {
  const d = (a: Map<string, number>, b: Map<string, number>) => {
    const out: Record<string, number> = {};
    for (const id of new Set([...a.keys(), ...b.keys()])) {
      const n = (b.get(id) ?? 0) - (a.get(id) ?? 0);
      if (n !== 0) out[id] = n;
    }
    return out;
  };
  const out: Delta = {};
  for (const k of ["inventory", "bank", "ground"] as const) {
    const x = d(before[k], after[k]);
    if (Object.keys(x).length > 0) out[k] = x;
  }
  if (after.coins !== before.coins) out.coins = after.coins - before.coins;
  return out;
}

const add = (d: Delta, place: "inventory" | "bank" | "ground", itemId: string, n: number): Delta => {
  const bag = { ...(d[place] ?? {}) };
  bag[itemId] = (bag[itemId] ?? 0) + n;
  if (bag[itemId] === 0) delete bag[itemId];
  return { ...d, [place]: bag };
};

describe("item conservation (property)", function () {
  this.timeout(120_000);

  // The oracle is the rules (README "The world", the handlers' documented rules), not the code: it
  // decides from the state before a command whether the command must succeed and where each item
  // must go (inventory, bank, ground, coin balance), and the run must agree on both. So a command
  // that silently does nothing fails as surely as one that loses or doubles an item.
  it("random gathering, dropping, picking up, banking, buying and selling move each item where the rules say, and only then", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 1_000_000 }), async (commands, seed) => {
        const g = await gameWorld(seed);
        const w = g.world;
        const tree = resourceNear(w, "tree_normal", { x: 0, z: 0 });
        const store = w.content.stores.get(STORE_ID)!;
        const stackable = (itemId: string) => w.content.item(itemId)?.stackable === true;
        const p = g.add({ coins: 500 }, [
          { itemId: "bronze_hatchet", quantity: 1 },
          { itemId: "bread", quantity: 1 },
          { itemId: "feathers", quantity: 10 },
        ]);
        for (const cmd of commands) {
          const before = places(w, p);
          const inv = p.data.inventory.map((s) => (s === null ? null : { ...s }));
          const free = inv.filter((s) => s === null).length;
          // Room in the inventory for q of an item (rule: coins go to the balance; a stackable item
          // joins its stack or takes a free slot; a non-stackable one takes a slot each).
          const fits = (itemId: string, q: number) =>
            itemId === "coins"
              ? before.coins + q <= MAX_STACK
              : stackable(itemId)
                ? before.inventory.has(itemId)
                  ? before.inventory.get(itemId)! + q <= MAX_STACK
                  : free >= 1
                : free >= q;
          const receive = (d: Delta, itemId: string, q: number): Delta =>
            itemId === "coins" ? { ...d, coins: (d.coins ?? 0) + q } : add(d, "inventory", itemId, q);
          g.clearSent();
          // undefined: the rules do not decide success from what the test can see (stock, prices);
          // then the outcome must be all or nothing, as the expected delta says.
          let mustSucceed: boolean | undefined;
          let expected: Delta = {};
          switch (cmd.t) {
            case "gather":
              w.teleport(p, besideTile(w, tree));
              g.send(p, "player:action", { action: "gather", targetId: tree.id });
              g.tick(6);
              g.send(p, "player:action", { action: "stop" });
              g.tick();
              break;
            case "drop": {
              // Drop: the whole slot goes to the ground where the player stands.
              const stack = inv[cmd.slot];
              mustSucceed = stack !== null && stack !== undefined;
              g.send(p, "player:action", { action: "drop", slot: cmd.slot });
              g.tick();
              if (stack) expected = add(add({}, "inventory", stack.itemId, -stack.quantity), "ground", stack.itemId, stack.quantity);
              break;
            }
            case "pickup": {
              const items = [...w.groundItems.values()];
              if (items.length === 0) continue;
              const item = items[cmd.pick % items.length]!;
              // Pickup: the whole ground stack, if it fits.
              mustSucceed = fits(item.itemId, item.quantity);
              w.teleport(p, { x: item.x, z: item.z });
              g.send(p, "player:action", { action: "pickup", targetId: item.id });
              g.tick();
              expected = receive(add({}, "ground", item.itemId, -item.quantity), item.itemId, item.quantity);
              break;
            }
            case "deposit": {
              // Deposit: a stackable item from that slot, a non-stackable one from any slots; every
              // item stacks in the bank (up to the largest stack, at most BANK_SIZE stacks).
              const stack = inv[cmd.slot];
              w.teleport(p, BANK);
              g.send(p, "bank:deposit", { slot: cmd.slot, quantity: cmd.quantity });
              g.tick();
              if (!stack) {
                mustSucceed = false;
                break;
              }
              const available = stackable(stack.itemId) ? stack.quantity : before.inventory.get(stack.itemId)!;
              const banked = before.bank.get(stack.itemId);
              mustSucceed = cmd.quantity <= available && (banked === undefined ? before.bank.size < BANK_SIZE : banked + cmd.quantity <= MAX_STACK);
              expected = add(add({}, "inventory", stack.itemId, -cmd.quantity), "bank", stack.itemId, cmd.quantity);
              break;
            }
            case "withdraw": {
              if (p.data.bank.length === 0) continue;
              const { itemId } = p.data.bank[cmd.pick % p.data.bank.length]!;
              const q = cmd.quantity === "all" ? before.bank.get(itemId)! : cmd.quantity;
              // Withdraw: whole or nothing (no partial withdrawals, no overflow).
              mustSucceed = before.bank.get(itemId)! >= q && fits(itemId, q);
              w.teleport(p, BANK);
              g.send(p, "bank:withdraw", { itemId, quantity: q });
              g.tick();
              expected = receive(add({}, "bank", itemId, -q), itemId, q);
              break;
            }
            case "buy": {
              // Buy: the store's price for each item at the stock it is taken from (docs/gameplay.md
              // "Stores"; stock and prices are the store's: not decided here).
              const entry = store.items[cmd.pick % store.items.length]!;
              const cost = purchaseCost(store, w.content.item(entry.itemId)!, w.stores.count(store, entry.itemId, w.tick + 1), cmd.quantity);
              if (before.coins < cost || !fits(entry.itemId, cmd.quantity)) mustSucceed = false;
              w.teleport(p, STORE);
              g.send(p, "store:buy", { storeId: STORE_ID, itemId: entry.itemId, quantity: cmd.quantity });
              g.tick();
              expected = receive({ coins: -cost }, entry.itemId, cmd.quantity);
              break;
            }
            case "sell": {
              // Sell (docs/gameplay.md "Stores"): pays each item at the stock it joins; untradeable
              // items, and a sale of which an item would pay nothing, are refused; the quantity
              // comes from that slot.
              const stack = inv[cmd.slot];
              const def = stack ? w.content.item(stack.itemId)! : undefined;
              const count = stack ? w.stores.count(store, stack.itemId, w.tick + 1) : 0;
              w.teleport(p, STORE);
              g.send(p, "store:sell", { storeId: STORE_ID, slot: cmd.slot, quantity: cmd.quantity });
              g.tick();
              if (!stack || !def) {
                mustSucceed = false;
                break;
              }
              const pay = saleValue(store, def, count, cmd.quantity);
              const lastPays = saleValue(store, def, count + cmd.quantity - 1, 1);
              if (def.tradeable === false || lastPays < 1 || cmd.quantity > (stackable(stack.itemId) ? stack.quantity : before.inventory.get(stack.itemId)!))
                mustSucceed = false;
              expected = add({}, "inventory", stack.itemId, -cmd.quantity);
              expected.coins = pay;
              break;
            }
          }
          const errors = g.errors(p);
          const succeeded = errors.length === 0;
          if (mustSucceed !== undefined)
            assert.equal(succeeded, mustSucceed, `${JSON.stringify(cmd)}: must ${mustSucceed ? "succeed" : "fail"}; errors=${JSON.stringify(errors)}`);
          if (!succeeded) expected = {};
          // Each successful chop is announced with woodcutting xp and yields one log in the inventory.
          const chops = g.events(p, "skill:xp").filter((e) => e.skill === "woodcutting").length;
          if (chops > 0) expected = add(expected, "inventory", "logs", chops);
          const after = places(w, p);
          assert.deepEqual(delta(before, after), expected, `${JSON.stringify(cmd)} errors=${JSON.stringify(errors)}`);
          assert.equal(after.equipment, before.equipment, "equipment untouched");
          assert.ok(p.data.coins >= 0 && Number.isSafeInteger(p.data.coins));
          for (const s of p.data.inventory) if (s) assert.ok(s.quantity >= 1 && s.quantity <= MAX_STACK);
        }
      }),
      { numRuns: 200 },
    );
  });
});
