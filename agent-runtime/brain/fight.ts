/** Combat, the scripted agent's fighting goal (see behaviours.ts for the others). */
import { burntFood } from "./cooking.ts";
import { dist, type Seen } from "../AgentView.ts";
import { isRangedWeapon } from "../../src/game/combatStyles.ts";
import { SINGLE_COMBAT_TICKS } from "../../src/game/singleCombat.ts";
import { nameOf, nearest } from "../knowledge.ts";
import { basePay } from "./selling.ts";
import { questBudgetStyle, questStyle } from "./meleeFocus.ts";
import { armourToWear, boostPrayer, canWield, castableSpell, kitOf, meleeWorth, needsAltar, trainingStyle } from "./fighting.ts";
import { casterLoot, staffToWield } from "./magicFocus.ts";
import {
  Avoid,
  Crowd,
  crowded,
  ended,
  errorOf,
  going,
  pct,
  Walker,
  type Behaviour,
  type BehaviourEventArgs,
  type Ctx,
  type Outcome,
  KILLS_PER_GOAL,
  FOE_SPREAD,
  CROWDED_TICKS,
  PLAYERS_PER_MONSTER,
  STALL_TICKS,
} from "./behaviourKit.ts";

/** Ticks between two bones buried (the server's BURY_DELAY_TICKS is 2; one more for the sync). */
const BURY_TICKS = 3;

/**
 * Whether a drop is worth a pickup: coins, runes, food (raw or cooked), bones to bury, gear, or
 * anything a placed store pays for (selling.ts). What is worth nothing is left lying.
 */
export function worthLooting(ctx: Ctx, itemId: string | undefined): boolean {
  if (itemId === undefined) return true;
  const know = ctx.know;
  const item = know.registry.item(itemId);
  if (item === undefined) return false;
  if (itemId === "coins" || know.keep.has(itemId) || (item.healAmount ?? 0) > 0 || (item.prayerXp ?? 0) > 0) return true;
  if (know.registry.recipes.cooking.some((r) => r.raw === itemId)) return true;
  return know.keepers.some((k) => basePay(know, k.storeId, itemId) >= 1);
}

/** Ticks an altar trip may take before it is given up (and no other is tried for as long). */
const ALTAR_TRIP_TICKS = 10 * STALL_TICKS;

/** Combat: fight monsters of the chosen type, loot what falls near, until KILLS_PER_GOAL kills. */
export class Fight implements Behaviour {
  private target: string | undefined;
  private issuedAt = -Infinity;
  private lastHit = -Infinity;
  /** The monster that last hit it, and when (single-way combat: the one it must fight first). */
  private hitBy: { id: string; tick: number } | undefined;
  private kills = 0;
  private equipped = false;
  private looting: string | undefined;
  private lootAt = -Infinity;
  private readonly avoid = new Avoid();
  private readonly walker = new Walker();
  private readonly crowd = new Crowd();
  private readonly mobType: string;
  /** When it last asked for a style (the sync confirming it comes a tick later). */
  private styleAskedAt = -Infinity;
  /** Casting was refused (no runes, level): melee until this tick. */
  private noMagicUntil = -Infinity;
  /** The last order was a cast (its refusal turns casting off, not the target). */
  private casting = false;
  private prayAskedAt = -Infinity;
  /** Went to an altar this goal (once: then it fights on with what it has), and when. */
  private altarSince: number | undefined;
  private altarAskedAt = -Infinity;
  /** No altar trip before this tick (the last one gave up). */
  private altarAgainAt = -Infinity;
  private buriedAt = -Infinity;
  private droppedAt = -Infinity;
  /** When it last put on a piece of armour (the sync showing it worn comes a tick later). */
  private woreAt = -Infinity;

  /** A melee level a quest asks for (meleeFocus.ts meleeQuestSkill): trained first, until reached. */
  private readonly trainFirst: { skill: string; level: number } | undefined;
  /** Under the magic focus: a fight begun casting ends when it can cast no more (it crafts runes, rather than melee). */
  private readonly castOnly: boolean;
  /** It cast in this goal (a cast-only fight ends once it cannot). */
  private hasCast = false;

  /** Whether it walks to an altar between kills when its prayer points run low (not in a quest's fight: quest.ts). */
  private readonly altar: boolean;

  /** What it picks up instead of worthLooting's (under `focus melee`: meleeFocus.ts meleeLoot). */
  private readonly loot: ((itemId: string) => boolean) | undefined;

  /** Between kills, a reason to end before the next foe (the constructor's `stopBefore`). */
  private readonly stopBefore: (() => string | undefined) | undefined;
  /** Under `focus melee`, the melee xp its quests still give (meleeFocus.ts pendingQuestXp): a skill they take to 10 is not trained. */
  private readonly pendingXp: Record<string, number> | undefined;

  constructor(
    mobType: string,
    opts: {
      trainFirst?: { skill: string; level: number } | undefined;
      castOnly?: boolean;
      pendingXp?: Record<string, number> | undefined;
      loot?: ((itemId: string) => boolean) | undefined;
      altar?: boolean;
      /** Between kills, a reason to end the goal before the next foe (under `focus melee`: a kill it cannot finish, meleeFood.ts shortOfAKill). */
      stopBefore?: (() => string | undefined) | undefined;
    } = {},
  ) {
    this.mobType = mobType;
    this.loot = opts.loot;
    this.stopBefore = opts.stopBefore;
    this.altar = opts.altar ?? true;
    this.trainFirst = opts.trainFirst;
    this.pendingXp = opts.pendingXp;
    this.castOnly = opts.castOnly ?? false;
  }

  /** Melee trains Strength ahead of Attack ahead of Defence (fighting.ts trainingStyle): the style that does, when another is in force. */
  private fitStyle(ctx: Ctx): void {
    const self = ctx.view.self!;
    const want =
      questStyle(self, ctx.know, this.trainFirst) ??
      (this.pendingXp === undefined ? undefined : questBudgetStyle(self, ctx.know, this.pendingXp)) ??
      trainingStyle(self, ctx.know);
    if (want === undefined || want.style === self.combatStyle || ctx.tick - this.styleAskedAt < 3) return;
    this.styleAskedAt = ctx.tick;
    ctx.send("player:setCombatStyle", { style: want.style });
    ctx.note(`style ${want.style} (train ${want.skill}, level ${self.skills[want.skill]?.level ?? 1})`);
  }

  step(ctx: Ctx): Outcome {
    if (this.kills >= KILLS_PER_GOAL) return ended("done", `${this.kills} kills`);
    const progress = pct(this.kills, KILLS_PER_GOAL);
    const self = ctx.view.self!;
    this.walker.keepToggle(ctx);
    if (!this.equipped) {
      this.equipped = true;
      // A carried elemental staff that makes a spell castable (a Staff of Air's air runes) is wielded first (magicFocus.ts).
      const staff = staffToWield(kitOf(self), ctx.know);
      const staffSlot = staff === undefined ? undefined : self.inventory.find((s) => s.itemId === staff);
      if (staffSlot !== undefined) {
        ctx.send("inventory:use", { slot: staffSlot.slot });
        ctx.note(`wield ${nameOf(ctx.know, staffSlot.itemId)} to cast`);
        return going(progress);
      }
      const wieldsStaff = ctx.know.registry.magic.staves.has(self.equipment.weapon?.itemId ?? "");
      // The best melee weapon carried that it can wield, when better than the one wielded (a
      // bought sword; a gathering tool, a staff or a bow is not one: fighting.ts meleeWorth). A bow
      // fires only with arrows in the ammunition slot (the server refuses every shot without:
      // combat.ts NO_AMMO) and trains Ranged, not the melee skills this goal trains: one wielded
      // without arrows is put away when no melee weapon replaces it.
      const wieldedId = self.equipment.weapon?.itemId;
      const bowNoArrows = wieldedId !== undefined && isRangedWeapon(ctx.know.registry.item(wieldedId)) && self.equipment.arrows === undefined;
      const wielded = meleeWorth(ctx.know, wieldedId) ?? 0;
      const weapon = (wieldsStaff && castableSpell(kitOf(self), ctx.know) !== undefined ? [] : self.inventory)
        .filter((s) => (meleeWorth(ctx.know, s.itemId) ?? 0) > (bowNoArrows ? -1 : wielded) && canWield(ctx.know, self.skills, s.itemId))
        .sort((a, b) => meleeWorth(ctx.know, b.itemId)! - meleeWorth(ctx.know, a.itemId)!)[0];
      if (weapon !== undefined) {
        ctx.send("inventory:use", { slot: weapon.slot });
        ctx.note(`equip ${nameOf(ctx.know, weapon.itemId)}`);
        return going(progress);
      }
      if (bowNoArrows) {
        ctx.send("equipment:remove", { slot: "weapon" });
        ctx.note(`put away the ${nameOf(ctx.know, wieldedId)}: no arrows equipped`);
        return going(progress);
      }
    }
    // Armour it carries that beats what it wears in that slot (a bought leather body, the
    // vambraces a quest gave), put on between blows: less damage taken, less time healing
    // (fighting.ts armourUpgrade). Not by a caster: armour takes off its magic accuracy.
    if (!this.castOnly && ctx.tick - this.woreAt >= 3 && castableSpell(kitOf(self), ctx.know) === undefined) {
      const piece = armourToWear(ctx.know, self);
      if (piece !== undefined) {
        this.woreAt = ctx.tick;
        ctx.send("inventory:use", { slot: piece.slot });
        ctx.note(`wear ${nameOf(ctx.know, piece.itemId)}`);
        return going(progress);
      }
    }
    const spots = ctx.know.mobSpots.get(this.mobType) ?? [];
    if (spots.length === 0) return ended("failed", `no ${this.mobType} in this world`, progress);
    const spot = nearest(ctx.view.position, spots)!;
    // A crowd at the spawn: every monster dead and others waiting, or a few players for each one
    // standing, and no kill of its own for a while (a kill clears the count).
    const measure = () => {
      const live = ctx.view.countSeen("npc", (e) => e.ref === this.mobType && e.dead !== true);
      if (live > 0) return { need: PLAYERS_PER_MONSTER * live, patience: 2 * CROWDED_TICKS };
      return {
        need: Math.max(
          2,
          ctx.view.countSeen("npc", (e) => e.ref === this.mobType),
        ),
        patience: CROWDED_TICKS,
      };
    };
    if (this.crowd.taken(ctx, spot, measure)) return crowded(`${this.mobType} fought by a crowd`, progress);
    // With runes for a spell it casts (training Magic); else melee in the style of the skill it trains now.
    const spell = ctx.tick < this.noMagicUntil ? undefined : castableSpell(kitOf(self), ctx.know);
    if (spell === undefined && this.castOnly && this.hasCast) return ended("done", `out of runes after ${this.kills} kills`);
    if (spell === undefined) this.fitStyle(ctx);
    const current = this.target !== undefined ? ctx.view.entities.get(this.target) : undefined;
    // An altar trip ends once the points are back, wherever they came back.
    if (this.altarSince !== undefined && !needsAltar(self, ctx.know)) this.altarSince = undefined;
    if ((current === undefined || current.dead === true) && this.altar && this.recharge(ctx)) return going(progress);
    if (current !== undefined && current.dead !== true) {
      if (spell === undefined) this.pray(ctx);
      // A cast is one attack: cast again when the spell's attack timer has run.
      if (spell !== undefined && ctx.tick - this.issuedAt >= spell.attackSpeed) {
        this.cast(ctx, current.id, spell.id);
        return going(progress);
      }
      if (ctx.tick - Math.max(this.issuedAt, this.lastHit) < STALL_TICKS) return going(progress);
    }
    // Between fights, pick up what lies close by (drops are visible to the killer first), one
    // item at a time: a new pickup would replace the one under way.
    if (this.looting !== undefined && ctx.view.entities.has(this.looting) && ctx.tick - this.lootAt < 8) return going(progress);
    // Bones it carries are buried (Prayer experience: its boost prayers), one at a time.
    const bone = self.inventory.find((s) => (ctx.know.registry.item(s.itemId)?.prayerXp ?? 0) > 0);
    if (bone !== undefined && ctx.tick - this.buriedAt >= BURY_TICKS) {
      this.buriedAt = ctx.tick;
      ctx.send("inventory:use", { slot: bone.slot });
      return going(progress);
    }
    // Burnt food it carries is dropped (it heals nothing, no store buys it): the slots it took
    // ended fishing for food at once in the 12:25 run (a full pack of burnt fish and meat).
    const waste = burntFood(ctx.know);
    const burnt = self.inventory.find((s) => waste.has(s.itemId));
    if (burnt !== undefined && ctx.tick - this.droppedAt >= BURY_TICKS) {
      this.droppedAt = ctx.tick;
      ctx.send("player:action", { action: "dropAll", targetId: burnt.itemId });
      ctx.note(`drop the ${nameOf(ctx.know, burnt.itemId)}`);
      return going(progress);
    }
    if (ctx.view.freeSlots() > 0) {
      const loot = ctx.view.find(
        "item",
        (e) =>
          dist(e, ctx.view.position) <= 4 &&
          !this.avoid.has(e.id, ctx) &&
          (this.castOnly ? casterLoot(ctx, e.ref) : this.loot !== undefined && e.ref !== undefined ? this.loot(e.ref) : worthLooting(ctx, e.ref)),
      )[0];
      if (loot !== undefined) {
        this.avoid.add(loot.id, ctx, 20);
        this.looting = loot.id;
        this.lootAt = ctx.tick;
        ctx.send("player:action", { action: "pickup", targetId: loot.id });
        ctx.note(`pick up ${loot.ref !== undefined ? nameOf(ctx.know, loot.ref) : "an item"}`);
        return going(progress);
      }
    }
    const foe = this.chooseFoe(ctx);
    // Not a kill it cannot finish: the goal ends for food (a fight left at 30 % leaves the monster to heal).
    const stop = foe === undefined ? undefined : this.stopBefore?.();
    if (stop !== undefined) return ended("done", stop);
    if (foe !== undefined) {
      this.target = foe.id;
      if (spell !== undefined) {
        this.cast(ctx, foe.id, spell.id);
        ctx.note(`cast ${spell.name} on ${nameOf(ctx.know, this.mobType)} (${foe.x},${foe.z})`);
        return going(progress);
      }
      this.issuedAt = ctx.tick;
      this.casting = false;
      ctx.send("player:action", { action: "attack", targetId: foe.id });
      ctx.note(`attack ${nameOf(ctx.know, this.mobType)} (${foe.x},${foe.z})`);
      return going(progress);
    }
    if (dist(spot, ctx.view.position) > 3) this.walker.walk(ctx, spot);
    return going(progress);
  }

  /**
   * The monster to attack: one no other player stands next to (that fight is someone else's) before
   * one that is fought already, then among the nearest (up to FOE_SPREAD tiles farther than the
   * nearest) one drawn at random: fighters arriving together spread over the monsters instead of
   * all taking the first, where only one of them would get the kill.
   */
  private chooseFoe(ctx: Ctx): Seen | undefined {
    const foes = ctx.view.find("npc", (e) => e.ref === this.mobType && e.dead !== true && !this.avoid.has(e.id, ctx));
    if (foes.length === 0) return undefined;
    const free = foes.filter((f) => ctx.view.countSeen("player", (p) => dist(p, f) <= 1) === 0);
    const pool = free.length > 0 ? free : foes;
    const here = ctx.view.position;
    const reach = dist(pool[0]!, here) + FOE_SPREAD;
    return ctx.rng.pick(pool.filter((f) => dist(f, here) <= reach));
  }

  /** In a melee fight with prayer points: the boost prayer for the skill it trains, switched on. */
  private pray(ctx: Ctx): void {
    const self = ctx.view.self!;
    if (self.prayerPoints <= 0 || ctx.tick - this.prayAskedAt < 3) return;
    const prayer = boostPrayer(self, ctx.know, trainingStyle(self, ctx.know)?.skill);
    if (prayer === undefined || self.activePrayers.includes(prayer.id)) return;
    this.prayAskedAt = ctx.tick;
    ctx.send("prayer:toggle", { prayerId: prayer.id, active: true });
    ctx.note(`pray ${prayer.name} (${self.prayerPoints} points)`);
  }

  /**
   * Between fights, points low: to the nearest altar to recharge them, each time they run low. A
   * trip that has not recharged them within ALTAR_TRIP_TICKS (the altar out of reach) is given up,
   * and none is tried again for as long.
   */
  private recharge(ctx: Ctx): boolean {
    const self = ctx.view.self!;
    if (this.altarSince === undefined) {
      if (ctx.tick < this.altarAgainAt || !needsAltar(self, ctx.know)) return false;
      this.altarSince = ctx.tick;
      ctx.note(`recharge prayer (${self.prayerPoints} points)`);
    }
    if (ctx.tick - this.altarSince > ALTAR_TRIP_TICKS) {
      this.altarSince = undefined;
      this.altarAgainAt = ctx.tick + ALTAR_TRIP_TICKS;
      return false;
    }
    const altar = nearest(ctx.view.position, ctx.know.altars)!;
    if (dist(altar, ctx.view.position) > 1) this.walker.walk(ctx, altar);
    if (dist(altar, ctx.view.position) <= 8 && ctx.tick - this.altarAskedAt >= STALL_TICKS) {
      this.altarAskedAt = ctx.tick;
      ctx.send("player:action", { action: "interact", targetId: altar.id });
    }
    return true;
  }

  private cast(ctx: Ctx, targetId: string, spellId: string): void {
    this.hasCast = true;
    this.issuedAt = ctx.tick;
    this.casting = true;
    ctx.send("player:action", { action: "cast", spellId, targetId });
  }

  onEvent(...[type, data, ctx]: BehaviourEventArgs): void {
    if (type === "combat:hit" && data.attackerId === ctx.view.playerId) {
      this.lastHit = ctx.tick;
      if (data.targetHealth === 0) {
        this.kills++;
        this.crowd.clear();
        ctx.note(`killed ${nameOf(ctx.know, this.mobType)} (${this.kills}/${KILLS_PER_GOAL})`);
      }
      return;
    }
    if (type === "combat:hit" && data.targetId === ctx.view.playerId) this.hitBy = { id: String(data.attackerId), tick: ctx.tick };
    const err = errorOf(type, data);
    if (err?.event === "player:action" && this.casting && (err.code === "NO_RUNES" || err.code === "LEVEL_TOO_LOW" || err.code === "UNKNOWN_SPELL")) {
      // Its spell cannot be cast (the runes ran out): melee for a while, the same monster.
      this.noMagicUntil = ctx.tick + 5 * STALL_TICKS;
      this.casting = false;
      this.issuedAt = -Infinity;
      return;
    }
    if (err?.event === "player:setCombatStyle") return;
    if (err?.event === "player:action" && this.target !== undefined && err.code !== "ITEM_GONE") {
      this.avoid.add(this.target, ctx);
      this.target = undefined;
    }
    // Single-way combat: a monster is after it (UNDER_ATTACK, "I'm already under attack."), so
    // that one is fought first, as the genre's player does (src/game/singleCombat.ts).
    const by = this.hitBy;
    if (err?.code === "UNDER_ATTACK" && by !== undefined && ctx.tick - by.tick <= SINGLE_COMBAT_TICKS && ctx.view.entities.has(by.id)) {
      this.target = by.id;
      this.issuedAt = ctx.tick;
      this.casting = false;
      ctx.send("player:action", { action: "attack", targetId: by.id });
      ctx.note(`fight back at ${nameOf(ctx.know, ctx.view.entities.get(by.id)!.ref ?? "the monster")}: under attack`);
    }
  }
}

/**
 * Banking: walk to a banker, open the bank, deposit everything but tools, weapons, coins and some
 * food. `visit`: go there even with nothing to deposit (the `go to bank` command).
 */
