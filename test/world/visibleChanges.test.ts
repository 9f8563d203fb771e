/**
 * indexVisibleChanges (rooms/visibleChanges.ts) hands each view only the changed trees it may see.
 * Differential test: two identical worlds take the same random steps (players joining, walking,
 * leaving; private state rebuilt; entities spawning and despawning; views gaining and losing
 * players, views disposed and their ids reused), one encoded by a plain encoder with the library's
 * own views and one by an indexed encoder with the server's (WorldView: its own add, removal and
 * dispose). Every shared patch and every view's patch must be the same bytes, and each
 * client's decoded state must hold no other player's private fields (but for those it was given,
 * as a moderator's view might be: such a player's trees have two views holding a tag).
 */
import assert from "node:assert/strict";
import { Decoder, Encoder, StateView } from "@colyseus/schema";
import { WorldView } from "../../rooms/WorldView.ts";
import { indexVisibleChanges } from "../../rooms/visibleChanges.ts";
import { seededRandom } from "../../src/game/world/World.ts";
import { EntityState, EquippedState, ItemSlotState, PlayerState, SkillState, TAG_OWNER, WorldState } from "../../schema/WorldState.ts";

const PRIVATE = ["coins", "inventory", "skills", "equipment", "bank"];

/** One world with its encoder and one view per connected player. */
class Side {
  readonly state = new WorldState();
  readonly encoder: Encoder;
  readonly views = new Map<string, { view: StateView; decoder: Decoder<WorldState>; sees: Set<string> }>();
  readonly indexed: boolean;
  constructor(indexed: boolean) {
    this.indexed = indexed;
    this.encoder = new Encoder(this.state);
    if (indexed) indexVisibleChanges(this.encoder);
  }
  /** The indexed side's clients have the server's views (WorldView: its own add, removal and dispose), the plain side's the library's. */
  newView(): StateView {
    return this.indexed ? new WorldView() : new StateView();
  }
}

function newPlayer(id: string, x: number, z: number): PlayerState {
  const p = new PlayerState({ id, name: id, x, z });
  p.coins = 10;
  p.inventory.push(new ItemSlotState({ slot: 0, itemId: "bronze_axe", quantity: 1 }));
  for (const s of ["attack", "woodcutting"]) p.skills.set(s, new SkillState({ level: 1, xp: 0 }));
  return p;
}

describe("indexVisibleChanges", () => {
  it("encodes every view's patch exactly like the plain encoder, through 150 random patches", () => {
    const plain = new Side(false);
    const indexed = new Side(true);
    const sides = [plain, indexed];
    const random = seededRandom(7);
    const pick = <T>(xs: T[]): T | undefined => (xs.length === 0 ? undefined : xs[Math.floor(random() * xs.length)]);
    let nextPlayer = 0;
    let nextEntity = 0;
    let viewPatches = 0;
    let visiblePairs = 0;
    /** Views given other players' private fields (see below): viewer → those players. */
    const watched = new Map<string, Set<string>>();

    const fullSync = (side: Side, id: string) => {
      const v = side.views.get(id)!;
      const it = { offset: 0 };
      side.encoder.encodeAll(it);
      return side.encoder.encodeAllView(v.view, it.offset, it);
    };

    for (let step = 0; step < 150; step++) {
      // The same random choices drive both sides: draw them once, apply to each.
      const ops: Array<(s: Side) => void> = [];
      const leaving: string[] = [];
      const players = [...plain.state.players.keys()];
      const entities = [...plain.state.entities.keys()];
      const connected = [...plain.views.keys()];
      const joins = players.length < 90 ? 1 + Math.floor(random() * 4) : 0;
      for (let j = 0; j < joins; j++) {
        const id = `p${nextPlayer++}`;
        const x = Math.floor(random() * 60);
        const z = Math.floor(random() * 60);
        ops.push((s) => s.state.players.set(id, newPlayer(id, x, z)));
      }
      for (const id of players) {
        const r = random();
        if (r < 0.5) {
          const dx = Math.floor(random() * 5) - 2;
          const dz = Math.floor(random() * 5) - 2;
          ops.push((s) => {
            const p = s.state.players.get(id)!;
            p.x += dx;
            p.z += dz;
          });
        } else if (r < 0.6) {
          const coins = Math.floor(random() * 1000);
          const n = Math.floor(random() * 4);
          const xp = Math.floor(random() * 500);
          ops.push((s) => {
            const p = s.state.players.get(id)!;
            p.coins = coins;
            p.inventory.clear();
            for (let i = 0; i < n; i++) p.inventory.push(new ItemSlotState({ slot: i, itemId: "logs", quantity: i + 1 }));
            p.skills.get("woodcutting")!.xp = xp;
            if (n % 2 === 0) p.equipment.set("weapon", new EquippedState({ itemId: "bronze_sword", quantity: 1 }));
            else p.equipment.delete("weapon");
            p.bank.push(new ItemSlotState({ slot: p.bank.length, itemId: "feather", quantity: n }));
          });
        } else if (r < 0.63) {
          // Logged out and back in within the patch: a new object under the same key (the map
          // keeps the key's index and moves it to the end of its entries). Players without a view.
          if (connected.includes(id)) continue;
          const [x, z] = [Math.floor(random() * 60), Math.floor(random() * 60)];
          ops.push((s) => {
            s.state.players.delete(id);
            s.state.players.set(id, newPlayer(id, x, z));
            for (const other of s.views.values()) other.sees.delete(id);
          });
        } else if (r < 0.64) {
          leaving.push(id);
          ops.push((s) => {
            s.state.players.delete(id);
            for (const other of s.views.values()) other.sees.delete(id);
          });
        }
      }
      if (random() < 0.4) {
        const id = `e${nextEntity++}`;
        const x = Math.floor(random() * 60);
        const z = Math.floor(random() * 60);
        ops.push((s) => s.state.entities.set(id, new EntityState({ id, kind: "npc", x, z, ref: "goblin", health: 5, maxHealth: 5 })));
      }
      const gone = random() < 0.2 ? pick(entities) : undefined;
      if (gone !== undefined) ops.push((s) => s.state.entities.delete(gone));
      const moved = pick(entities);
      if (moved !== undefined && moved !== gone) {
        const hp = Math.floor(random() * 5);
        ops.push((s) => {
          const e = s.state.entities.get(moved)!;
          e.x += 1;
          e.health = hp;
        });
      }
      // Connect up to three players that have no view yet (joins).
      const unconnected = players.filter((p) => !connected.includes(p));
      const connecting = new Set<string>();
      for (let c = 0; c < 3; c++) {
        const id = random() < 0.7 ? pick(unconnected) : undefined;
        if (id !== undefined) connecting.add(id);
      }
      // The leaving players' views are disposed of before any player leaves the state: the
      // library's dispose clears only the trees still in the state, so a view given a freed id in
      // the same patch would be sent the DELETE of a player its predecessor saw (WorldView clears
      // those too: see test/world/worldView.test.ts).
      for (const id of leaving) {
        for (const s of sides) {
          s.views.get(id)?.view.dispose();
          s.views.delete(id);
        }
      }
      for (const op of ops) for (const s of sides) op(s);
      // Now and then a view is given another player's private fields too (as a moderator's might
      // be): that player's trees then have two views holding a tag on them.
      const watcher = random() < 0.1 ? pick(connected) : undefined;
      const target = watcher === undefined ? undefined : pick(connected.filter((c) => c !== watcher));
      if (watcher !== undefined && target !== undefined && plain.state.players.has(watcher) && plain.state.players.has(target)) {
        for (const s of sides) s.views.get(watcher)!.view.add(s.state.players.get(target)!, TAG_OWNER);
        if (!watched.has(watcher)) watched.set(watcher, new Set());
        watched.get(watcher)!.add(target);
      }
      const fresh: string[] = [];
      for (const id of connecting) {
        if (!plain.state.players.has(id)) continue;
        for (const s of sides) {
          const view = s.newView();
          s.views.set(id, { view, decoder: new Decoder(new WorldState()), sees: new Set([id]) });
          const p = s.state.players.get(id)!;
          view.add(p, TAG_OWNER);
          view.add(p);
        }
        fresh.push(id);
      }
      // Interest: each view holds the players and entities within 16 tiles (Chebyshev) of its player.
      for (const s of sides) {
        for (const [id, v] of s.views) {
          const me = s.state.players.get(id)!;
          const near = (o: { x: number; z: number }) => Math.max(Math.abs(o.x - me.x), Math.abs(o.z - me.z)) <= 16;
          const track = (o: PlayerState | EntityState, oid: string) => {
            if (oid === id) return;
            if (near(o) && !v.sees.has(oid)) {
              v.view.add(o);
              v.sees.add(oid);
            } else if (!near(o) && v.sees.has(oid)) {
              v.view.remove(o);
              v.sees.delete(oid);
            }
          };
          s.state.players.forEach(track);
          s.state.entities.forEach(track);
          for (const seen of [...v.sees]) if (seen.startsWith("e") && !s.state.entities.has(seen)) v.sees.delete(seen);
        }
      }
      // A joining client gets its full state first (as Colyseus does on join).
      for (const id of fresh) {
        const [a, b] = sides.map((s) => fullSync(s, id).slice());
        assert.deepEqual(b, a, `full state of ${id} at step ${step}`);
        indexed.views.get(id)!.decoder.decode(b!);
      }
      // The patch.
      const its = sides.map(() => ({ offset: 1 }));
      const shared = sides.map((s, i) => s.encoder.encode(its[i]).slice(1, its[i]!.offset));
      assert.deepEqual(shared[1], shared[0], `shared patch at step ${step}`);
      const sharedEnd = its.map((it) => it.offset);
      for (const id of plain.views.keys()) {
        const outs = sides.map((s, i) => s.encoder.encodeView(s.views.get(id)!.view, sharedEnd[i]!, its[i]!));
        assert.deepEqual(outs[1], outs[0], `view of ${id} at step ${step}`);
        if (outs[0]!.length > 1) viewPatches++;
        const v = indexed.views.get(id)!;
        if (outs[1]!.length > 1) v.decoder.decode(outs[1]!.slice(1));
        visiblePairs += v.sees.size;
      }
      for (const s of sides) s.encoder.discardChanges();
      // Decoded: own private state present, nobody else's.
      for (const [id, v] of indexed.views) {
        const decoded = v.decoder.state.toJSON() as { players: Record<string, Record<string, unknown>> };
        for (const [pid, p] of Object.entries(decoded.players)) {
          if (pid === id) assert.equal(p.coins, indexed.state.players.get(id)!.coins, `${id} sees its own coins`);
          else if (!watched.get(id)?.has(pid)) for (const key of PRIVATE) assert.equal(p[key], undefined, `${id} must not see ${pid}'s ${key}`);
        }
      }
    }
    // The walk covered real traffic, not a trivial world.
    assert.ok(viewPatches > 1000, `view patches: ${viewPatches}`);
    assert.ok(visiblePairs > 10_000, `visible pairs: ${visiblePairs}`);
    assert.ok(indexed.views.size > 64, `views: ${indexed.views.size}`);
    assert.ok(watched.size > 5, `views given another's private fields: ${watched.size}`);
  });
});
