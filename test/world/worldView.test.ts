/**
 * WorldView (rooms/WorldView.ts) skips the walk over subtrees a view cannot see when a player
 * leaves it. Encoded and decoded with the real schema encoder and decoder: a player walking out of
 * another's view and back never gives it private data, and both clients' decoded states match
 * the server's.
 */
import assert from "node:assert/strict";
import { $changes, Decoder, Encoder, type StateView } from "@colyseus/schema";
import { WorldView } from "../../rooms/WorldView.ts";
import { EntityState, ItemSlotState, PlayerState, SkillState, TAG_OWNER, WorldState } from "../../schema/WorldState.ts";

class Client {
  readonly decoder = new Decoder(new WorldState());
  readonly view: StateView;
  constructor(view: StateView) {
    this.view = view;
  }
  get state(): Record<string, unknown> {
    return this.decoder.state.toJSON();
  }
}

function patch(encoder: Encoder, clients: Client[]): void {
  const it = { offset: 0 };
  encoder.encode(it);
  const shared = it.offset;
  for (const c of clients) c.decoder.decode(encoder.encodeView(c.view, shared, it));
  encoder.discardChanges();
}

function player(id: string, x: number): PlayerState {
  const p = new PlayerState({ id, name: id, x, z: 0 });
  p.coins = 25;
  p.inventory.push(new ItemSlotState({ slot: 0, itemId: "bronze_axe", quantity: 1 }));
  for (const s of ["attack", "defence", "woodcutting"]) p.skills.set(s, new SkillState({ level: 1, xp: 0 }));
  return p;
}

describe("WorldView", () => {
  it("drops a player from a view and brings it back without private data, keeping the owner's", () => {
    const state = new WorldState();
    const encoder = new Encoder(state);
    const a = player("a", 0);
    const b = player("b", 5);
    state.players.set("a", a);
    state.players.set("b", b);
    const ca = new Client(new WorldView());
    const cb = new Client(new WorldView());
    ca.view.add(a, TAG_OWNER);
    ca.view.add(a);
    ca.view.add(b);
    cb.view.add(b, TAG_OWNER);
    cb.view.add(b);
    cb.view.add(a);
    for (const c of [ca, cb]) {
      const it = { offset: 0 };
      encoder.encodeAll(it);
      c.decoder.decode(encoder.encodeAllView(c.view, it.offset, it));
    }
    encoder.discardChanges();
    const players = (c: Client) => c.state.players as Record<string, Record<string, unknown>>;
    assert.equal(players(cb).a!.name, "a");
    assert.equal(players(cb).a!.inventory, undefined);
    assert.equal(players(ca).a!.coins, 25);

    // A walks away: out of B's view; meanwhile its private state and position change.
    cb.view.remove(a);
    a.x = 40;
    a.coins = 30;
    a.inventory.push(new ItemSlotState({ slot: 1, itemId: "logs", quantity: 3 }));
    a.skills.get("woodcutting")!.xp = 25;
    patch(encoder, [ca, cb]);
    assert.equal(players(cb).a, undefined, "A left B's view");
    assert.equal(cb.view.isVisible(a[$changes]!), false);
    for (const tree of [a.inventory[$changes], a.skills[$changes], a.inventory[1]![$changes]!]) assert.equal(cb.view.isVisible(tree), false);
    assert.deepEqual(players(ca).a!.inventory, [
      { slot: 0, itemId: "bronze_axe", quantity: 1 },
      { slot: 1, itemId: "logs", quantity: 3 },
    ]);
    assert.equal(players(ca).a!.coins, 30);

    // A comes back: B gets the current public fields, still nothing private.
    a.x = 6;
    cb.view.add(a);
    patch(encoder, [ca, cb]);
    assert.equal(players(cb).a!.x, 6);
    for (const key of ["coins", "inventory", "skills", "equipment", "bank"]) assert.equal(players(cb).a![key], undefined, `B must not see A's ${key}`);
    a.inventory.push(new ItemSlotState({ slot: 2, itemId: "logs", quantity: 1 }));
    a.coins = 31;
    a.z = 1;
    patch(encoder, [ca, cb]);
    assert.equal(players(cb).a!.z, 1);
    assert.equal(players(cb).a!.inventory, undefined);
    assert.equal(players(cb).a!.coins, undefined);
    assert.equal((players(ca).a!.inventory as unknown[]).length, 3);
    assert.equal(players(ca).a!.coins, 31);
    assert.deepEqual(players(cb).b!.inventory, [{ slot: 0, itemId: "bronze_axe", quantity: 1 }], "B's own private state is untouched");

    // Its own player taken out of a view: the private trees' visibility goes with it.
    const own = [b.inventory[$changes], b.skills[$changes], b.inventory[0]![$changes]!, b.skills.get("attack")![$changes]!];
    for (const tree of own) assert.equal(cb.view.isVisible(tree), true, "B sees its own private trees");
    cb.view.remove(b);
    for (const tree of own) assert.equal(cb.view.isVisible(tree), false, "cleared with B's own player");
  });

  /** Every attached tree on which `view` (by its slot and bit) still holds a bit: visible, tagged or subscribed. */
  function treesWithBit(encoder: Encoder, slot: number, bit: number): string[] {
    const found: string[] = [];
    const trees = (encoder.root as unknown as { changeTrees: Record<number, { ref: object; visibleViews?: number[]; subscribedViews?: number[]; tagViews?: Map<number, number[]> }> }).changeTrees;
    for (const tree of Object.values(trees)) {
      const has = (a: number[] | undefined) => a !== undefined && slot < a.length && (a[slot]! & bit) !== 0;
      if (has(tree.visibleViews) || has(tree.subscribedViews) || [...(tree.tagViews?.values() ?? [])].some(has)) found.push(tree.ref.constructor.name);
    }
    return found;
  }

  it("clears, when disposed, every bit it set (its own player's private trees, the players and entities it saw), and the next view given its id sees only what it is given", () => {
    const state = new WorldState();
    const encoder = new Encoder(state);
    const players = ["a", "b", "c", "d"].map((id, i) => player(id, i));
    for (const p of players) state.players.set(p.id, p);
    for (let i = 0; i < 3; i++) state.entities.set(`e${i}`, new EntityState({ id: `e${i}`, kind: "npc", x: i, z: 1 }));
    const [a, b, c, d] = players as [PlayerState, PlayerState, PlayerState, PlayerState];
    const other = new Client(new WorldView());
    other.view.add(b, TAG_OWNER);
    other.view.add(b);
    other.view.add(a);
    const leaving = new Client(new WorldView());
    leaving.view.add(a, TAG_OWNER);
    leaving.view.add(a);
    for (const p of [b, c, d]) leaving.view.add(p);
    for (const e of state.entities.values()) leaving.view.add(e);
    for (const cl of [other, leaving]) {
      const it = { offset: 0 };
      encoder.encodeAll(it);
      cl.decoder.decode(encoder.encodeAllView(cl.view, it.offset, it));
    }
    encoder.discardChanges();
    // Some walk out of its view, one logs out, its own inventory changes (new trees under a visible one).
    leaving.view.remove(c);
    state.players.delete("d");
    a.inventory.push(new ItemSlotState({ slot: 1, itemId: "logs", quantity: 2 }));
    patch(encoder, [other, leaving]);
    const { _slot: slot, _bit: bit, id } = leaving.view as unknown as { _slot: number; _bit: number; id: number };
    assert.ok(treesWithBit(encoder, slot, bit).length > 10, "it holds bits before it is disposed");

    leaving.view.dispose();
    assert.deepEqual(treesWithBit(encoder, slot, bit), [], "no tree keeps a bit of the disposed view");
    // The other view's bits are its own, untouched.
    assert.equal(other.view.isVisible(b.inventory[$changes]), true);
    assert.equal(other.view.isVisible(a[$changes]!), true);

    // The next view is given the same id, and sees only what it is given: c, and nothing private.
    const next = new Client(new WorldView());
    next.view.add(c);
    assert.equal((next.view as unknown as { id: number }).id, id, "the freed id is reused");
    const it = { offset: 0 };
    encoder.encodeAll(it);
    next.decoder.decode(encoder.encodeAllView(next.view, it.offset, it));
    encoder.discardChanges();
    a.coins = 99;
    a.x = 3;
    patch(encoder, [other, next]);
    assert.deepEqual(Object.keys(next.state.players as object), ["c"]);
    assert.deepEqual(Object.keys(next.state.entities as object), []);
    assert.equal((next.state.players as Record<string, Record<string, unknown>>).c!.inventory, undefined);
  });

  it("lets go of the trees of players the state let go of, as they pile up (a long session among players who come and go)", () => {
    const state = new WorldState();
    const encoder = new Encoder(state);
    const view = new WorldView();
    const me = player("me", 0);
    state.players.set("me", me);
    view.add(me, TAG_OWNER);
    view.add(me);
    for (let i = 0; i < 2_000; i++) {
      const p = player(`p${i}`, 1);
      state.players.set(p.id, p);
      view.add(p);
      encoder.discardChanges();
      state.players.delete(p.id); // logged out while in view: never removed from the view
    }
    const marked = (view as unknown as { marked: Set<unknown> }).marked;
    assert.ok(marked.size < 600, `kept ${marked.size} trees for 2,000 players come and gone`);
    view.dispose();
    const { _slot: slot, _bit: bit } = view as unknown as { _slot: number; _bit: number };
    assert.equal(slot, 0);
    assert.deepEqual(treesWithBit(encoder, 0, bit), []);
  });
});
