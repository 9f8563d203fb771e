import assert from "node:assert/strict";
import fc from "fast-check";
import type { CommitRequest } from "../../src/game/trade/Trades.ts";
import type { Player } from "../../src/game/world/Player.ts";
import { gameWorld } from "../support/game.ts";

type Cmd =
  | { t: "request"; from: number; to: number }
  | { t: "respond"; who: number; pick: number; accept: boolean }
  | { t: "add"; who: number; slot: number; quantity: number }
  | { t: "remove"; who: number; pick: number }
  | { t: "accept"; who: number }
  | { t: "cancel"; who: number }
  | { t: "drop"; who: number; slot: number }
  | { t: "disconnect"; who: number }
  | { t: "walkAway"; who: number }
  | { t: "settle"; pick: number; ok: boolean }
  | { t: "tick"; n: number }
  | { t: "round"; a: number; b: number; slotA: number; slotB: number; quantity: number; at: number; disrupt: Disruption };

type Disruption = "none" | "cancel" | "disconnect" | "walkAway" | "drop" | "add" | "settleOk" | "settleFail";

const who = fc.integer({ min: 0, max: 2 });
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant("request" as const), from: who, to: who }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant("respond" as const), who, pick: fc.nat(5), accept: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("add" as const),
      who,
      slot: fc.integer({ min: 0, max: 5 }),
      quantity: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(2 ** 31 - 1)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("remove" as const), who, pick: fc.nat(5) }) },
  { weight: 10, arbitrary: fc.record({ t: fc.constant("accept" as const), who }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("cancel" as const), who }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("drop" as const), who, slot: fc.integer({ min: 0, max: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("disconnect" as const), who }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("walkAway" as const), who }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("settle" as const), pick: fc.nat(3), ok: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("tick" as const), n: fc.integer({ min: 1, max: 3 }) }) },
  {
    weight: 12,
    arbitrary: fc.record({
      t: fc.constant("round" as const),
      a: who,
      b: who,
      slotA: fc.integer({ min: 0, max: 4 }),
      slotB: fc.integer({ min: 0, max: 4 }),
      quantity: fc.integer({ min: 1, max: 3 }),
      at: fc.integer({ min: 0, max: 7 }),
      disrupt: fc.constantFrom<Disruption>("none", "cancel", "disconnect", "walkAway", "drop", "add", "settleOk", "settleFail"),
    }),
  },
);

describe("trading conserves items (property)", function () {
  this.timeout(120_000);

  it("random trade sessions among three players, with cancels, disconnects and slow commits, never create or lose an item", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 10, maxLength: 80 }), async (cmds) => {
        const g = await gameWorld(7);
        const w = g.world;
        const items = () => [
          { itemId: "logs", quantity: 1 },
          { itemId: "feathers", quantity: 5 },
          { itemId: "bronze_sword", quantity: 1 },
          { itemId: "bread", quantity: 1 },
        ];
        const spots = [
          { x: 0, z: 1 },
          { x: 1, z: 1 },
          { x: 1, z: 2 },
        ];
        const players: Player[] = spots.map((s, i) => g.add({ ...s, name: `Prop${i}` }, items()));
        const all = [...players];
        // A slow committer: swaps wait until a `settle` command stores or rolls them back.
        const pending: CommitRequest[] = [];
        w.trades.commit = (req) => pending.push(req);
        const totals = () => {
          const out: Record<string, number> = {};
          // A reconnected player shares its data with its earlier self: count each character once.
          for (const data of new Set(all.map((p) => p.data))) for (const s of data.inventory) if (s) out[s.itemId] = (out[s.itemId] ?? 0) + s.quantity;
          for (const gi of w.groundItems.values()) out[gi.itemId] = (out[gi.itemId] ?? 0) + gi.quantity;
          return out;
        };
        const before = totals();
        const live = (i: number) => (w.players.get(players[i]!.id) === players[i] ? players[i]! : undefined);
        for (const c of cmds) {
          switch (c.t) {
            case "request": {
              const a = live(c.from);
              if (a) g.send(a, "tradeRequest", { targetPlayerId: players[c.to]!.id });
              break;
            }
            case "respond": {
              const p = live(c.who);
              // Mostly the newest request (older ones have often expired or been answered).
              const asks = g.events(players[c.who]!, "tradeIncoming");
              const ask = c.pick < 4 ? asks.at(-1) : asks[c.pick % Math.max(1, asks.length)];
              if (p && ask) g.send(p, "tradeRequestRespond", { tradeId: ask.tradeId, accept: c.pick !== 5 || c.accept });
              break;
            }
            case "add": {
              const p = live(c.who);
              const s = p && w.trades.sessionOf(p.id);
              if (p && s) g.send(p, "tradeAddItem", { tradeId: s.id, inventorySlot: c.slot, quantity: c.quantity });
              break;
            }
            case "remove": {
              const p = live(c.who);
              const s = p && w.trades.sessionOf(p.id);
              if (p && s) g.send(p, "tradeRemoveItem", { tradeId: s.id, tradeSlot: c.pick });
              break;
            }
            case "accept":
            case "cancel": {
              const p = live(c.who);
              const s = p && w.trades.sessionOf(p.id);
              if (p && s) g.send(p, c.t === "accept" ? "tradeAccept" : "tradeCancel", { tradeId: s.id });
              break;
            }
            case "drop": {
              const p = live(c.who);
              if (p) g.send(p, "player:action", { action: "drop", slot: c.slot });
              break;
            }
            case "disconnect": {
              const p = live(c.who);
              // As WorldService does: cancel the open trade; a player whose swap is being stored
              // only leaves once it has settled. Disconnecting again reconnects.
              if (p && !p.tradeCommitting) {
                w.trades.cancelFor(w, p.id, "disconnected");
                w.removePlayer(p.id);
              } else if (!p) {
                const back = w.addPlayer(players[c.who]!.data);
                players[c.who] = back;
                all.push(back);
              }
              break;
            }
            case "walkAway": {
              // Steps out of trading range, or back to its spot.
              const p = live(c.who);
              const home = spots[c.who]!;
              if (p) w.teleport(p, p.x === home.x && p.z === home.z ? { x: home.x + 6, z: home.z } : home);
              break;
            }
            case "settle": {
              const req = pending.splice(c.pick % Math.max(1, pending.length), 1)[0];
              if (req) {
                if (c.ok) w.trades.finish(w, req.session.id, req.swap);
                else w.trades.abort(w, req.session.id, "SERVER_ERROR", "rolled back");
              }
              break;
            }
            case "tick":
              g.tick(c.n);
              break;
            case "round": {
              // A whole trade, with one disruption at a random step.
              const A = live(c.a);
              const B = live(c.b);
              if (!A || !B || A === B) break;
              const disrupt = () => {
                const victim = c.at % 2 === 0 ? A : B;
                const s = w.trades.sessionOf(victim.id);
                switch (c.disrupt) {
                  case "cancel":
                    if (s) g.send(victim, "tradeCancel", { tradeId: s.id });
                    break;
                  case "disconnect":
                    if (!victim.tradeCommitting) {
                      w.trades.cancelFor(w, victim.id, "disconnected");
                      w.removePlayer(victim.id);
                    }
                    break;
                  case "walkAway":
                    w.teleport(victim, { x: victim.x + 6, z: victim.z });
                    break;
                  case "drop":
                    g.send(victim, "player:action", { action: "drop", slot: c.slotA });
                    break;
                  case "add":
                    if (s) g.send(victim, "tradeAddItem", { tradeId: s.id, inventorySlot: c.slotB, quantity: 1 });
                    break;
                  case "settleOk":
                  case "settleFail": {
                    const req = pending.shift();
                    if (req && c.disrupt === "settleOk") w.trades.finish(w, req.session.id, req.swap);
                    else if (req) w.trades.abort(w, req.session.id, "SERVER_ERROR", "rolled back");
                    break;
                  }
                }
              };
              const steps: (() => void)[] = [
                () => g.send(A, "tradeRequest", { targetPlayerId: B.id }),
                () => {
                  const ask = g.events(B, "tradeIncoming").at(-1);
                  if (ask && live(c.b)) g.send(B, "tradeRequestRespond", { tradeId: ask.tradeId, accept: true });
                },
                () => {
                  const s = w.trades.sessionOf(A.id);
                  if (s && live(c.a)) g.send(A, "tradeAddItem", { tradeId: s.id, inventorySlot: c.slotA, quantity: c.quantity });
                  if (s && live(c.b)) g.send(B, "tradeAddItem", { tradeId: s.id, inventorySlot: c.slotB, quantity: 1 });
                },
                () => {
                  const s = w.trades.sessionOf(A.id);
                  if (s) for (const p of [A, B]) if (live(c.a) && live(c.b)) g.send(p, "tradeAccept", { tradeId: s.id });
                },
                () => {
                  const s = w.trades.sessionOf(A.id);
                  if (s) for (const p of [A, B]) if (live(c.a) && live(c.b)) g.send(p, "tradeAccept", { tradeId: s.id });
                },
                () => {},
                () => {},
              ];
              steps.forEach((step, i) => {
                step();
                g.tick();
                if (i === c.at) disrupt();
              });
              if (c.at >= steps.length) disrupt();
              // Put walkers back, and bring the disconnected back, for later rounds.
              for (const i of [c.a, c.b]) {
                const p = live(i);
                if (p) w.teleport(p, spots[i]!);
                else if (!players[i]!.tradeCommitting) {
                  players[i] = w.addPlayer(players[i]!.data);
                  all.push(players[i]);
                }
              }
              break;
            }
          }
          g.tick();
          assert.deepEqual(totals(), before, `after ${JSON.stringify(c)}`);
          for (const p of all) {
            const completed = g.events(p, "tradeCompleted").map((e) => e.tradeId);
            assert.equal(new Set(completed).size, completed.length, "no trade completes twice");
            const cancelled = g.events(p, "tradeCancelled").map((e) => e.tradeId);
            assert.equal(new Set(cancelled).size, cancelled.length, "tradeCancelled at most once per trade");
            assert.ok(!completed.some((id) => cancelled.includes(id)), "a trade is completed or cancelled, not both");
          }
        }
        // Everything pending settles; nothing stays frozen or half-done.
        for (const req of pending.splice(0)) w.trades.finish(w, req.session.id, req.swap);
        g.tick();
        assert.deepEqual(totals(), before);
        for (const p of all) assert.equal(p.tradeCommitting, false);
      }),
      { numRuns: 300 },
    );
  });
});
