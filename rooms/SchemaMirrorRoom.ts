/**
 * The world room's schema state, mirrored from the game: its players (public fields for every view,
 * private ones for a Colyseus owner only) and its entities, each brought up to date when its
 * version moved. The base of WorldRoom; what each client sees of it is ClientViewsRoom's.
 */
import { Room } from "@colyseus/core";
import type { ArraySchema } from "@colyseus/schema";
import { SKILLS, wholeXp } from "../src/game/skills.ts";
import { runEnergyOf, shownRunEnergy } from "../src/game/world/runEnergy.ts";
import { mirrorPrayer } from "./prayerMirror.ts";
import { wornOf } from "../src/game/worn.ts";
import { DEFAULT_COMBAT_STYLE } from "../src/game/combatStyles.ts";
import type { ItemStack, Player } from "../src/game/world/Player.ts";
import { describe, type World } from "../src/game/world/World.ts";
import { chebyshev } from "../src/game/map/CollisionMap.ts";
import type { EntityView } from "../src/game/world/entities.ts";
import { KEEP_RADIUS, REFRESH_TICKS } from "../src/game/world/Interest.ts";
import { EntityState, EquippedState, ItemSlotState, PlayerState, SkillState, WorldState } from "../schema/WorldState.ts";
import type { WorldClient } from "./ColyseusConnection.ts";
import type { WorldRoomServices } from "./worldRoomServices.ts";

/**
 * How long a player's id is remembered after it left the state (WorldRoom.addSchema): a view
 * refreshes every REFRESH_TICKS ticks (the delta worker's a tick after, or its answer a tick late),
 * and lets go then of what left; this is many times that.
 */
export const REMOVED_KEPT_TICKS = 25 * REFRESH_TICKS;

export class SchemaMirrorRoom extends Room<{ state: WorldState; client: WorldClient }> {
  override state = new WorldState();
  services!: WorldRoomServices;
  protected readonly schemaOf = new Map<string, PlayerState>();
  protected readonly mirrored = new Map<string, { pub: number; priv: number }>();
  /** Non-player entities currently in the state, with the version last mirrored. */
  protected readonly entityVersions = new Map<string, number>();
  /**
   * Whether the state lags behind the world: ticks without a Colyseus client skip the mirror (no
   * one reads the state; a world of `/ws` players and agents need not pay for it). The versions
   * compared by the mirror bring every lagging player and entity up to date at once.
   */
  protected mirrorBehind = false;

  /** Everything that changed since it was last mirrored, into the state. */
  protected mirrorAll(world: World): void {
    for (const player of world.players.values()) this.mirror(player);
    this.mirrorEntities(world);
    this.mirrorBehind = false;
  }

  protected addSchema(player: Player): void {
    if (this.schemaOf.has(player.id)) return;
    const s = new PlayerState();
    this.schemaOf.set(player.id, s);
    this.state.players.set(player.id, s);
    this.mirrored.set(player.id, { pub: -1, priv: -1 });
    this.mirror(player);
    // Back in the world before the views that held it saw it leave (a logout and a login between
    // two ticks): those it is still near are given its new schema now, as nothing would tell them
    // it entered again; for the others its id no longer names anything in their view. Only for a
    // player who left lately: a view lets an id go within a few ticks of its leaving, and a first
    // login, or one long after, would scan every client for nothing (O(clients) a login: ~1 ms at
    // 1,000 clients, 1.8 s of the world's thread over a ramp of 2,000 logins).
    if (!this.removedAt.delete(player.id)) return;
    const world = this.services.service.world;
    for (const client of this.clients) {
      const conn = client.userData?.conn;
      if (conn === undefined || !conn.inView.has(player.id)) continue;
      const viewer = world.players.get(client.userData!.playerId);
      if (viewer !== undefined && chebyshev(viewer, player) <= KEEP_RADIUS) client.view?.add(s);
      else conn.inView.delete(player.id);
    }
  }

  /**
   * Players whose schema left the state lately, by id: the world's tick then (see addSchema). Let
   * go of after {@link REMOVED_KEPT_TICKS}, by then every view has let the id go.
   */
  protected readonly removedAt = new Map<string, number>();

  /** Forgets the players removed more than {@link REMOVED_KEPT_TICKS} ago (oldest first: the map is in removal order). */
  protected forgetRemoved(tick: number): void {
    for (const [id, at] of this.removedAt) {
      if (tick - at <= REMOVED_KEPT_TICKS) break;
      this.removedAt.delete(id);
    }
  }

  protected removeSchema(player: Player): void {
    this.removedAt.delete(player.id);
    this.removedAt.set(player.id, this.services.service.world.tick);
    this.state.players.delete(player.id);
    this.schemaOf.delete(player.id);
    this.mirrored.delete(player.id);
  }

  protected mirror(player: Player): void {
    const s = this.schemaOf.get(player.id);
    const seen = this.mirrored.get(player.id);
    if (s === undefined || seen === undefined) return;
    const d = player.data;
    if (seen.pub !== player.publicVersion) {
      seen.pub = player.publicVersion;
      s.id = player.id;
      s.name = d.name;
      s.x = d.x;
      s.z = d.z;
      s.health = d.health;
      s.maxHealth = player.maxHealth;
      s.combatLevel = d.combatLevel;
      s.running = player.running;
      // Unchanged (nearly always) the setter sends nothing: a patch carries it only when the gear changed.
      s.worn = wornOf(d.equipment, player.worn).text;
    }
    // Private fields only for an owner on Colyseus: only its view has the owner tag, and a `/ws`
    // owner reads none of the schema (at 2,000 players, half of the state's trees were these).
    if (seen.priv !== player.privateVersion && this.services.service.connectionOf(player.id)?.transport === "colyseus") {
      seen.priv = player.privateVersion;
      // In place: the schema's setters ignore a value that did not change, so the owner's patch
      // carries what changed (a log cut is one slot, not the whole inventory and bank again) and no
      // schema object is made for what was already there.
      s.coins = d.coins;
      s.combatStyle = d.combatStyle ?? DEFAULT_COMBAT_STYLE;
      s.autocast = d.autocast ?? "";
      Object.assign(s, { runEnergy: shownRunEnergy(runEnergyOf(player)), runMode: player.runMode, autoRetaliate: player.autoRetaliate });
      mirrorPrayer(s, player);
      syncSlots(s.inventory, d.inventory);
      for (const skill of SKILLS) {
        const cur = s.skills.get(skill);
        const { level } = d.skills[skill],
          xp = wholeXp(d.skills[skill].xpTenths);
        if (cur === undefined) s.skills.set(skill, new SkillState({ level, xp }));
        else Object.assign(cur, { level, xp });
      }
      let unequipped: string[] | undefined;
      for (const key of s.equipment.keys()) if (!(key in d.equipment)) (unequipped ??= []).push(key);
      if (unequipped !== undefined) for (const key of unequipped) s.equipment.delete(key);
      for (const slot in d.equipment) {
        const { itemId, quantity } = d.equipment[slot]!;
        const cur = s.equipment.get(slot);
        if (cur === undefined) s.equipment.set(slot, new EquippedState({ itemId, quantity }));
        else Object.assign(cur, { itemId, quantity });
      }
      syncSlots(s.bank, d.bank);
    }
  }

  /** Every NPC, ground item, resource and object into the state (views filter per client); gone ones out. */
  protected mirrorEntities(world: World): void {
    const present = new Set<string>();
    world.forEachShown(false, (e, version) => {
      present.add(e.id);
      if (this.entityVersions.get(e.id) === version) return;
      this.entityVersions.set(e.id, version);
      const view = describe(e) as EntityView;
      let s = this.state.entities.get(view.id);
      if (s === undefined) {
        s = new EntityState();
        s.id = view.id;
        s.kind = view.kind;
        this.state.entities.set(view.id, s);
      }
      s.x = view.x;
      s.z = view.z;
      s.ref = view.ref;
      if (view.kind === "npc") Object.assign(s, { name: view.name, health: view.health, maxHealth: view.maxHealth, level: view.level });
      else if (view.kind === "item") s.quantity = view.quantity;
      else if (view.kind === "resource") s.depleted = view.depleted;
      else if (view.kind === "object" && view.open !== undefined) s.open = view.open;
    });
    for (const id of this.entityVersions.keys()) {
      if (present.has(id)) continue;
      this.entityVersions.delete(id);
      this.state.entities.delete(id);
    }
  }

  /** The schema of a player or entity in the state, by id (undefined: not in the state). */
  protected schemaFor(id: string): PlayerState | EntityState | undefined {
    return this.schemaOf.get(id) ?? this.state.entities.get(id);
  }
}

/**
 * `list` made to hold the stacks of `slots` that are not empty, in slot order, each as its slot,
 * item and quantity: the entries already there are given the values (a setter ignores an unchanged
 * one), the rest pushed or popped.
 */
function syncSlots(list: ArraySchema<ItemSlotState>, slots: readonly (ItemStack | null)[]): void {
  let i = 0;
  for (let slot = 0; slot < slots.length; slot++) {
    const stack = slots[slot];
    if (stack === null || stack === undefined) continue;
    const fields = { slot, itemId: stack.itemId, quantity: stack.quantity };
    if (i < list.length) Object.assign(list.at(i), fields);
    else list.push(new ItemSlotState(fields));
    i++;
  }
  while (list.length > i) list.pop();
}
