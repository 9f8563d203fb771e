/**
 * What a scripted fighter decides besides which monster to hit, as a player of the genre would:
 * - the attack style to train with: Strength ahead of Attack ahead of Defence (trainingStyle), among
 *   the styles the wielded weapon offers (the server's own style table, src/game/combatStyles.ts);
 * - the best melee weapon it can wield and afford at a store (weaponUpgrade);
 * - the best combat spell it can cast now, with the runes it carries (or a staff standing for
 *   some), and which runes to buy to cast one when it has coins to spare;
 * - whether the monsters next to it could kill it with their next hit (their max hit against its
 *   health), to eat before it is in danger.
 * Pure decisions from what the agent sees and the content: no sending.
 */
import { hitChance, maxHitHitpoints, NPC_STYLE_BONUS } from "../../src/game/combat.ts";
import { isRangedWeapon, stylesOffered, type CombatStyle } from "../../src/game/combatStyles.ts";
// Hitpoints are shown and dealt in lifepoints, ten to a hitpoint.
import { LIFEPOINTS_PER_HITPOINT } from "../../src/game/world/entities.ts";
import type { Spell } from "../../src/manifests/magicContent.ts";
import type { PrayerDef } from "../../src/manifests/schemas/misc.ts";
import type { Self, AgentView } from "../AgentView.ts";
import type { Knowledge } from "../knowledge.ts";

/** The melee skills a fighter trains, in the order it leads them (Strength first), and the style that gives each its experience. */
export const MELEE_TRAINING: readonly { skill: string; style: CombatStyle }[] = [
  { skill: "strength", style: "aggressive" },
  { skill: "attack", style: "accurate" },
  { skill: "defense", style: "defensive" },
];

/**
 * How many levels Strength runs ahead of Attack, and Attack of Defence. Measured with
 * `npm run bench:melee-bound -- --order leapfrog:strength,attack,defense` (bench/agents/README.md):
 * a lead of 5 reaches 10/10/10 on cows in 7,315 ticks unarmed against 8,257 training the lowest
 * skill; leads of 2, 4, 7 and 9 give 7,606, 7,387, 7,393 and 7,500.
 */
export const TRAINING_LEAD = 5;

/**
 * The style to train with, as a genre player climbs: Strength first (a higher max hit speeds every
 * later kill), kept TRAINING_LEAD levels ahead of Attack, and Attack as far ahead of Defence, all
 * within the band of ten levels the lowest skill is in (to 10/10/10, then 20/20/20, ...); among the
 * styles the wielded weapon offers (the server's own style table, src/game/combatStyles.ts; else the
 * lowest offered skill). Defence also trains by being hit, which only lets Attack lead further.
 * Undefined with a ranged weapon (its styles train Ranged) or when no melee training style is offered.
 */
export function trainingStyle(self: Self, know: Knowledge): { style: CombatStyle; skill: string } | undefined {
  const weaponId = self.equipment.weapon?.itemId;
  const offered = stylesOffered(weaponId === undefined ? undefined : know.registry.item(weaponId));
  if (offered.has("rapid")) return undefined;
  const level = (skill: string) => self.skills[skill]?.level ?? 1;
  const trained = MELEE_TRAINING.filter((t) => offered.has(t.style));
  if (trained.length === 0) return undefined;
  const band = (Math.floor(Math.min(...MELEE_TRAINING.map((t) => level(t.skill))) / 10) + 1) * 10;
  for (let i = 0; i < trained.length; i++) {
    const next = trained[i + 1];
    const cap = next === undefined ? band : Math.min(band, level(next.skill) + TRAINING_LEAD);
    if (level(trained[i]!.skill) < cap) return trained[i];
  }
  return [...trained].sort((a, b) => level(a.skill) - level(b.skill))[0];
}

/** What a spell choice looks at: levels, what is carried, the wielded weapon, coins (from player:sync or a brain's Observation). */
export interface Kit {
  skills: Record<string, { level: number; xp: number }>;
  inventory: readonly { itemId: string; quantity: number }[];
  weaponId: string | undefined;
  coins: number;
}

export const kitOf = (self: Self): Kit => ({ skills: self.skills, inventory: self.inventory, weaponId: self.equipment.weapon?.itemId, coins: self.coins });

/** Casts the agent has runes for: carried, or given without limit by the wielded elemental staff. */
function runesFor(self: Kit, know: Knowledge, spell: Spell): number {
  const free = know.registry.magic.staves.get(self.weaponId ?? "") ?? [];
  let casts = Infinity;
  for (const r of spell.runes) {
    if (free.includes(r.runeId)) continue;
    const have = self.inventory.reduce((n, s) => (s.itemId === r.runeId ? n + s.quantity : n), 0);
    casts = Math.min(casts, Math.floor(have / r.quantity));
  }
  return casts;
}

/** The strongest combat spell it can cast now: its Magic level reaches it and it has the runes (a staff's count). */
export function castableSpell(self: Kit, know: Knowledge): Spell | undefined {
  const magic = self.skills.magic?.level ?? 1;
  let best: Spell | undefined;
  for (const spell of know.registry.magic.spells.values()) {
    if (spell.level > magic || runesFor(self, know, spell) < 1) continue;
    if (best === undefined || spell.level >= best.level) best = spell;
  }
  return best;
}

/** A purchase of runes at a store: what to buy and how many, for `casts` casts of `spell`. */
export interface RunePurchase {
  spellId: string;
  storeId: string;
  items: { itemId: string; quantity: number }[];
  cost: number;
}

/** Coins an agent keeps back when it buys runes (for a tool it may still need). */
export const COINS_KEPT = 100;
/** Casts bought at most in one trip to the rune shop. */
export const CASTS_PER_TRIP = 100;
/** Fewer casts than this bought is no trip worth making. */
export const MIN_CASTS = 10;

/**
 * The runes to buy for the strongest spell at its Magic level that one placed store sells every
 * missing rune of, with the coins beyond COINS_KEPT: up to CASTS_PER_TRIP casts, at least
 * MIN_CASTS; undefined when it cannot afford that many or already has runes for a spell.
 */
export function runePurchase(self: Kit, know: Knowledge): RunePurchase | undefined {
  if (castableSpell(self, know) !== undefined) return undefined;
  const spare = self.coins - COINS_KEPT;
  const magic = self.skills.magic?.level ?? 1;
  const free = know.registry.magic.staves.get(self.weaponId ?? "") ?? [];
  const placed = new Set(know.keepers.map((k) => k.storeId));
  const spells = [...know.registry.magic.spells.values()].filter((s) => s.level <= magic).sort((a, b) => b.level - a.level);
  for (const spell of spells) {
    const needed = spell.runes.filter((r) => !free.includes(r.runeId));
    for (const store of know.registry.stores.values()) {
      if (!placed.has(store.id)) continue;
      const prices = needed.map((r) => store.items.find((i) => i.itemId === r.runeId)?.price);
      if (prices.some((p) => p === undefined)) continue;
      const perCast = needed.reduce((sum, r, i) => sum + r.quantity * prices[i]!, 0);
      const casts = perCast === 0 ? CASTS_PER_TRIP : Math.min(CASTS_PER_TRIP, Math.floor(spare / perCast));
      if (casts < MIN_CASTS) continue;
      return { spellId: spell.id, storeId: store.id, items: needed.map((r) => ({ itemId: r.runeId, quantity: r.quantity * casts })), cost: perCast * casts };
    }
  }
  return undefined;
}

/**
 * A monster's max hit in lifepoints, as the server rolls it: src/game/combat.ts npcAttacksPlayer's
 * own formula, maxHitHitpoints of its Strength with no strength bonus and the monster's invisible
 * style level (NPC_STYLE_BONUS; without it a boar's 2 hitpoints were reckoned 1).
 */
export function npcMaxHit(know: Knowledge, npcRef: string): number {
  const strength = know.registry.npcs.get(npcRef)?.stats?.strength ?? 1;
  return maxHitHitpoints(strength, 0, NPC_STYLE_BONUS) * LIFEPOINTS_PER_HITPOINT;
}

/** The highest next hit of the living monsters next to the agent (0 when none stands by). */
export function threat(view: AgentView, know: Knowledge): number {
  const here = view.position;
  let worst = 0;
  for (const e of view.entities.values()) {
    if (e.kind !== "npc" || e.dead === true || e.ref === undefined || Math.max(Math.abs(e.x - here.x), Math.abs(e.z - here.z)) > 1) continue;
    if (know.registry.npcs.get(e.ref)?.combat?.attackable !== true) continue;
    worst = Math.max(worst, npcMaxHit(know, e.ref));
  }
  return worst;
}

/**
 * Whether to eat now: below `share` of its health, or hurt and within one max hit of a monster next
 * to it (the hit that could kill it comes before the eating would).
 */
export function shouldEat(view: AgentView, know: Knowledge, share: number): boolean {
  const self = view.self!;
  if (self.health >= self.maxHealth) return false;
  return self.health < self.maxHealth * share || self.health <= threat(view, know);
}

/**
 * The share of its health below which a fighter with nothing to eat leaves the fight (the reflexes:
 * reflexes.ts losingFight); what a fight may spend is its health above this (meleeFocus.ts).
 */
export const FLEE_BELOW = 0.3;

/**
 * Whether the agent is losing a fight it should leave (nothing left to eat): below `flee` of its
 * health or within one max hit of a monster next to it, while it fights. A combat goal is a fight
 * throughout; a quest goal only while a stage's fight is on or a monster next to it could kill it, so a hurt agent
 * still walks to talk, gathers and delivers (before, every quest chosen at low health was given up
 * at once as "a losing fight", five in one tick in the quest ladder's trace).
 */
export function losingFight(view: AgentView, know: Knowledge, flee: number, goal: "combat" | "quest" | "other", questFighting: boolean): boolean {
  const self = view.self!;
  if (goal === "other") return false;
  const near = threat(view, know);
  // Not in its fight, a quest goes on unless a monster next to it could kill it with its next hit.
  if (goal === "quest" && !questFighting) return self.health <= near;
  return self.health < self.maxHealth * flee || self.health <= near;
}

/** Tiles a fighter leaving a fight walks when it can cook in the field: past a monster's leash (the content's leashRange, 6 to 10 for the low monsters). */
export const FLEE_TILES = 12;

/** Where to leave a fight for when it cooks in the field: FLEE_TILES toward `home`, or home when nearer. */
export function fleeSpot(here: { x: number; z: number }, home: { x: number; z: number }): { x: number; z: number } {
  const dx = home.x - here.x;
  const dz = home.z - here.z;
  const d = Math.max(Math.abs(dx), Math.abs(dz));
  if (d <= FLEE_TILES) return { x: home.x, z: home.z };
  return { x: here.x + Math.round((dx * FLEE_TILES) / d), z: here.z + Math.round((dz * FLEE_TILES) / d) };
}

/** The multiplier key (`prayers.json` bonuses) that boosts each melee skill. */
const BOOSTS: Record<string, string> = { attack: "attackMultiplier", strength: "strengthMultiplier", defense: "defenseMultiplier" };

/**
 * The boost prayer to pray in a melee fight: the strongest one at its Prayer level boosting the
 * skill it trains (Strength's when it casts or trains nothing in melee: the hits end fights sooner),
 * and only one that adds a level: the server floors the boosted level (src/game/prayer.ts
 * prayedLevel), so a 5 % boost adds nothing below level 20, and its points and altar trips bought
 * nothing (two or three trips a run of 19:40 under `focus melee`, at Strength 8-10).
 */
export function boostPrayer(self: Pick<Self, "skills">, know: Knowledge, skill: string | undefined): PrayerDef | undefined {
  const level = self.skills.prayer?.level ?? 1;
  const trained = skill !== undefined && BOOSTS[skill] !== undefined ? skill : "strength";
  const key = BOOSTS[trained]!;
  const base = self.skills[trained]?.level ?? 1;
  let best: PrayerDef | undefined;
  for (const p of know.registry.prayers.values()) {
    const boost = p.bonuses?.[key];
    if (p.level > level || boost === undefined || boost <= 1) continue;
    // The same floor as the server's, with its epsilon (20 × 1.15 is 22.999… in floats).
    if (Math.floor(base * boost + 1e-9) <= base) continue;
    if (best === undefined || boost > best.bonuses![key]!) best = p;
  }
  return best;
}

/** Prayer points below this share of its Prayer level: recharge at an altar before the next fight. */
export const RECHARGE_BELOW = 0.25;

/** Whether to go and recharge: points low, an altar in the content, and a prayer it could use. */
export function needsAltar(self: Self, know: Knowledge): boolean {
  if (know.altars.length === 0 || boostPrayer(self, know, undefined) === undefined) return false;
  return self.prayerPoints < Math.max(1, (self.skills.prayer?.level ?? 1) * RECHARGE_BELOW);
}

/** Ticks a kill costs besides the blows (finding the next monster, walking to it, looting): the genre's respawn and walk. */
export const KILL_OVERHEAD_TICKS = 15;
/** A monster whose max hit is more than this share of the agent's max health is not one to train on. */
export const SAFE_HIT_SHARE = 1 / 3;

/** What worn gear adds to a melee fight: the weapon's melee attack and strength bonuses, the armour's melee defence (src/game/combat.ts playerBonuses). */
export interface MeleeGear {
  attack: number;
  strength: number;
  defence: number;
}

/** No gear: unarmed and unarmoured. */
export const NO_GEAR: MeleeGear = { attack: 0, strength: 0, defence: 0 };

/**
 * The melee bonuses of what it wears (item ids by slot): the weapon's attack bonus of its best melee
 * type, the strength bonuses, and the armour's defence as the server averages it (armourWorth).
 */
export function meleeGear(know: Knowledge, equipment: Readonly<Record<string, string | undefined>>): MeleeGear {
  const gear = { ...NO_GEAR };
  for (const itemId of Object.values(equipment)) {
    const b = (itemId === undefined ? undefined : know.registry.item(itemId)?.bonuses) ?? {};
    gear.attack += (b.attack ?? 0) + Math.max(b.attackStab ?? 0, b.attackSlash ?? 0, b.attackCrush ?? 0);
    gear.strength += b.strength ?? 0;
    gear.defence += armourWorth(know, itemId) ?? 0;
  }
  return gear;
}

/**
 * The agent's melee against a monster and back: lifepoints dealt and taken per tick, by the
 * server's formulas (src/game/combat.ts: hitChance, maxHitHitpoints), with the bonuses of the gear
 * it wears (a bronze sword's +5 attack and +4 strength, a leather body's +8 defence; before, a
 * Tusks in the Hollow boar was reckoned as if it fought unarmed and unarmoured).
 */
export function meleeRates(
  skills: Record<string, { level: number }>,
  know: Knowledge,
  npcRef: string,
  gear: MeleeGear = NO_GEAR,
  style?: CombatStyle,
): { dealt: number; taken: number } {
  const stats = know.registry.npcs.get(npcRef)?.stats;
  // The style's invisible levels (OSRS: +3 to the trained skill, +1 each when controlled); none
  // when no style is given: a lower bound on what it deals, an upper one on what it takes.
  const boost = (skill: string) => (style === "controlled" ? 1 : style !== undefined && MELEE_TRAINING.find((t) => t.skill === skill)?.style === style ? 3 : 0);
  const level = (s: string) => (skills[s]?.level ?? 1) + boost(s);
  const attackRoll = (level("attack") + 8) * (gear.attack + 64);
  const defenceRoll = ((stats?.defense ?? 1) + 9) * ((stats?.defenseBonus ?? 0) + 64);
  const chance = hitChance;
  const maxHit = maxHitHitpoints(level("strength"), gear.strength) * LIFEPOINTS_PER_HITPOINT;
  const perAttack = (chance(attackRoll, defenceRoll) * maxHit) / 2;
  const health = (stats?.health ?? 1) * LIFEPOINTS_PER_HITPOINT;
  const ticksPerKill = (health / Math.max(0.1, perAttack)) * 4 + KILL_OVERHEAD_TICKS;
  const theirs = chance(((stats?.attack ?? 1) + NPC_STYLE_BONUS + 8) * 64, (level("defense") + 8) * (gear.defence + 64));
  const speed = know.registry.npcs.get(npcRef)?.combat?.attackSpeedTicks ?? 4;
  return { dealt: health / ticksPerKill, taken: (theirs * npcMaxHit(know, npcRef)) / 2 / speed };
}

/**
 * The monster to train melee on, by the agent's levels: of those at most its combat level (the
 * weakest if none) whose max hit it can take three times, the one giving the most damage dealt a
 * tick (so experience: 4 xp a hitpoint) less half the damage taken (the food it costs), a kill's
 * walk and looting counted. Undefined when `targets` holds no monster.
 */
export function bestMonster(
  targets: readonly string[],
  skills: Record<string, { level: number }>,
  combatLevel: number,
  maxHealth: number,
  know: Knowledge,
): string | undefined {
  const level = (id: string) => know.registry.npcs.get(id)?.stats?.level ?? 1;
  const weakest = Math.min(...targets.map(level));
  const fit = targets.filter((id) => level(id) === weakest || (level(id) <= combatLevel && npcMaxHit(know, id) <= maxHealth * SAFE_HIT_SHARE));
  const value = (id: string) => {
    const r = meleeRates(skills, know, id);
    return r.dealt - r.taken / 2;
  };
  return [...fit].sort((a, b) => value(b) - value(a) || level(a) - level(b))[0];
}

/**
 * A melee weapon's worth to a trainer: its best melee attack bonus plus its strength bonus, per
 * 4-tick swing (a slower weapon is worth less by its speed). Undefined for a bow, a staff (a
 * caster's weapon: its runes, not its blows) or a gathering tool (a hatchet stays a hatchet).
 */
export function meleeWorth(know: Knowledge, itemId: string | undefined): number | undefined {
  if (itemId === undefined) return 0;
  const item = know.registry.item(itemId);
  if (item === undefined || item.equipSlot !== "weapon" || isRangedWeapon(item) || know.tools.has(itemId)) return undefined;
  if (know.registry.magic.staves.has(itemId)) return undefined;
  const b = item.bonuses ?? {};
  const attack = (b.attack ?? 0) + Math.max(b.attackStab ?? 0, b.attackSlash ?? 0, b.attackCrush ?? 0);
  return ((attack + (b.strength ?? 0)) * 4) / (item.attackSpeed ?? 4);
}

/** Whether its levels meet an item's skill requirements (content's `requirements.skills`). */
export function canWield(know: Knowledge, skills: Record<string, { level: number }>, itemId: string): boolean {
  const req = know.registry.item(itemId)?.requirements?.skills ?? {};
  return Object.entries(req).every(([skill, lvl]) => (skills[skill]?.level ?? 1) >= (lvl ?? 1));
}

/** Coins an agent keeps back when it buys a weapon or armour (a quest's fee, food and a tool it may still need). */
export const WEAPON_RESERVE = 20;

/**
 * The best melee weapon a placed store sells (among `targets`, the server's shopping goal) that it
 * can wield at its levels, afford with WEAPON_RESERVE left, and that is worth more than the best it
 * holds (meleeWorth): the genre's bronze sword, then iron, then steel once Attack 5.
 */
export function weaponUpgrade(
  know: Knowledge,
  obs: { skills: Record<string, { level: number }>; coins: number; inventory: readonly { itemId: string }[]; equipment: Record<string, string> },
  targets: readonly string[],
): { itemId: string; storeId: string; price: number } | undefined {
  const held = [...obs.inventory.map((s) => s.itemId), obs.equipment.weapon].filter((id) => id !== undefined);
  const have = Math.max(0, ...held.map((id) => meleeWorth(know, id) ?? 0));
  const placed = new Set(know.keepers.map((k) => k.storeId));
  let best: { itemId: string; storeId: string; price: number; worth: number } | undefined;
  for (const store of know.registry.stores.values()) {
    if (!placed.has(store.id)) continue;
    for (const offer of store.items) {
      const worth = meleeWorth(know, offer.itemId);
      if (worth === undefined || worth <= have || !targets.includes(offer.itemId) || !canWield(know, obs.skills, offer.itemId)) continue;
      if (obs.coins < offer.price + WEAPON_RESERVE) continue;
      if (best === undefined || worth > best.worth || (worth === best.worth && offer.price < best.price))
        best = { itemId: offer.itemId, storeId: store.id, price: offer.price, worth };
    }
  }
  return best === undefined ? undefined : { itemId: best.itemId, storeId: best.storeId, price: best.price };
}

/** The worn slots that hold armour (src/agents/goalContent.ts ARMOUR_SLOTS). */
const ARMOUR_SLOTS: ReadonlySet<string> = new Set(["helmet", "body", "legs", "shield", "gloves", "boots"]);

/**
 * A piece of armour's melee defence bonus as the server counts it (src/game/combat.ts
 * playerBonuses: its defence plus the mean of its stab, slash and crush defence, rounded; the
 * monsters hit in melee). Undefined for anything not worn in an armour slot.
 */
export function armourWorth(know: Knowledge, itemId: string | undefined): number | undefined {
  const item = itemId === undefined ? undefined : know.registry.item(itemId);
  if (item === undefined || !ARMOUR_SLOTS.has(item.equipSlot ?? "")) return undefined;
  const b = item.bonuses ?? {};
  return (b.defense ?? 0) + Math.round(((b.defenseStab ?? 0) + (b.defenseSlash ?? 0) + (b.defenseCrush ?? 0)) / 3);
}

/** An affordable piece is bought when it gives at least this share of the best defence a coin on sale (else it saves for that). */
export const ARMOUR_VALUE_SHARE = 0.8;

/** The best defence it holds for a slot: worn there or carried (0 with none). */
function heldDefence(know: Knowledge, held: readonly string[], slot: string): number {
  return Math.max(0, ...held.filter((id) => know.registry.item(id)?.equipSlot === slot).map((id) => armourWorth(know, id) ?? 0));
}

/**
 * The armour to buy next (among `targets`, the server's shopping goal): of the pieces a placed
 * store sells that it can wear at its levels and afford, the one adding the most defence a coin
 * over what it holds for that slot (a leather body, 36 coins for +8, before a bronze full helm, 35
 * for +4), when that is at least ARMOUR_VALUE_SHARE of the best a coin on sale (else it saves). Only once it holds a melee weapon: the first coins buy that (weaponUpgrade), which
 * speeds every kill. A hit is rolled against the defence level times (64 + the bonus): at Defence 1
 * against a cow, +8 takes a hit from 55 % to 47 % of its swings (`npm run bench:melee-bound --
 * --armour`: 3,037 lifepoints taken over the climb with a bronze sword, 2,756 with a leather body).
 * A piece adding less than `minValue` defence a coin is not bought (meleeFood.ts meleeArmourFloor:
 * under `focus melee` the coins buy food instead).
 */
export function armourUpgrade(
  know: Knowledge,
  obs: { skills: Record<string, { level: number }>; coins: number; inventory: readonly { itemId: string }[]; equipment: Record<string, string> },
  targets: readonly string[],
  minValue = 0,
): { itemId: string; storeId: string; price: number } | undefined {
  const held = [...obs.inventory.map((s) => s.itemId), ...Object.values(obs.equipment)];
  if (Math.max(0, ...held.map((id) => meleeWorth(know, id) ?? 0)) <= 0) return undefined;
  const placed = new Set(know.keepers.map((k) => k.storeId));
  let best: { itemId: string; storeId: string; price: number; value: number } | undefined;
  // The best value a coin of any piece it could wear, affordable or not: a piece of much less is
  // not bought while it saves for that one (two leather pieces of +1 for 20 coins took most of a
  // leather body's 36 in the 12:25 run).
  let bestValue = 0;
  for (const store of know.registry.stores.values()) {
    if (!placed.has(store.id)) continue;
    for (const offer of store.items) {
      const worth = armourWorth(know, offer.itemId);
      if (worth === undefined || !targets.includes(offer.itemId) || !canWield(know, obs.skills, offer.itemId)) continue;
      const gain = worth - heldDefence(know, held, know.registry.item(offer.itemId)!.equipSlot!);
      if (gain <= 0) continue;
      const value = gain / Math.max(1, offer.price);
      if (value < minValue) continue;
      bestValue = Math.max(bestValue, value);
      // WEAPON_RESERVE kept, as for a weapon: Hides for the Vats' tanning fee went on leather boots in a run of 19:35, and its stage failed.
      if (obs.coins < offer.price + WEAPON_RESERVE) continue;
      if (best === undefined || value > best.value) best = { itemId: offer.itemId, storeId: store.id, price: offer.price, value };
    }
  }
  if (best === undefined || best.value < ARMOUR_VALUE_SHARE * bestValue) return undefined;
  return { itemId: best.itemId, storeId: best.storeId, price: best.price };
}

/** The carried armour to put on: the piece that adds the most defence over what is worn in its slot, and that it can wear. */
export function armourToWear(know: Knowledge, self: Pick<Self, "inventory" | "equipment" | "skills">): { slot: number; itemId: string } | undefined {
  let best: { slot: number; itemId: string; gain: number } | undefined;
  for (const s of self.inventory) {
    const worth = armourWorth(know, s.itemId);
    if (worth === undefined || !canWield(know, self.skills, s.itemId)) continue;
    const slot = know.registry.item(s.itemId)!.equipSlot!;
    const worn = self.equipment[slot]?.itemId;
    const gain = worth - (armourWorth(know, worn) ?? 0);
    if (gain > 0 && (best === undefined || gain > best.gain)) best = { slot: s.slot, itemId: s.itemId, gain };
  }
  return best === undefined ? undefined : { slot: best.slot, itemId: best.itemId };
}
