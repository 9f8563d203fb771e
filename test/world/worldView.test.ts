/**
 * WorldView (rooms/WorldRoom.ts) skips the walk over subtrees a view cannot see when a player
 * leaves it. Encoded and decoded with the real schema encoder and decoder: a player walking out of
 * another's view and back never gives it private data, and both clients' decoded states match
 * the server's.
 */
import assert from "node:assert/strict";
import { $changes, Decoder, Encoder, type StateView } from "@colyseus/schema";
import { WorldView } from "../../rooms/WorldRoom.ts";
import { ItemSlotState, PlayerState, SkillState, TAG_OWNER, WorldState } from "../../schema/WorldState.ts";

class Client {
  readonly decoder = new Decoder(new WorldState());
  readonly view: StateView;
  constructor(view: StateView) {
    this.view = view;
  }
  get state(): Record<string, unknown> {
    return this.decoder.state.toJSON() as Record<string, unknown>;
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
    for (const tree of [a.inventory[$changes]!, a.skills[$changes]!, a.inventory[1]![$changes]!]) assert.equal(cb.view.isVisible(tree), false);
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
    const own = [b.inventory[$changes]!, b.skills[$changes]!, b.inventory[0]![$changes]!, b.skills.get("attack")![$changes]!];
    for (const tree of own) assert.equal(cb.view.isVisible(tree), true, "B sees its own private trees");
    cb.view.remove(b);
    for (const tree of own) assert.equal(cb.view.isVisible(tree), false, "cleared with B's own player");
  });
});
