/**
 * What a scripted fighter decides besides which monster to hit, as a player of the genre would:
 * - the attack style that trains its lowest melee skill (Attack, Strength, Defence in turn: the
 *   style switches when the skill it trains passes another's level), among the styles the wielded
 *   weapon offers (the server's own style table, src/game/combatStyles.ts);
 * - the best combat spell it can cast now, with the runes it carries (or a staff standing for
 *   some), and which runes to buy to cast one when it has coins to spare;
 * - whether the monsters next to it could kill it with their next hit (their max hit against its
 *   health), to eat before it is in danger.
 * Pure decisions from what the agent sees and the content: no sending.
 */
import { stylesOffered, type CombatStyle } from "../../src/game/combatStyles.ts";
import type { Spell } from "../../src/manifests/magicContent.ts";
import type { Self, AgentView } from "../AgentView.ts";
import type { Knowledge } from "../knowledge.ts";

/** The melee skills a fighter trains in turn, and the style that gives each its experience. */
export const MELEE_TRAINING: readonly { skill: string; style: CombatStyle }[] = [
  { skill: "attack", style: "accurate" },
  { skill: "strength", style: "aggressive" },
  { skill: "defense", style: "defensive" },
];

/** Hitpoints are shown and dealt in lifepoints, ten to a hitpoint (src/game/world/entities.ts LIFEPOINTS_PER_HITPOINT). */
const LIFEPOINTS_PER_HITPOINT = 10;

/**
 * The style that trains its lowest melee skill by level, among those the wielded weapon offers;
 * among skills at the same level, the one the style in force trains (no switching back and forth
 * while two skills gain experience side by side: Defence also trains by being hit), else the one
 * with the least experience (then Attack, Strength, Defence). Undefined with a ranged weapon (its
 * styles train Ranged) or when no melee training style is offered.
 */
export function trainingStyle(self: Self, know: Knowledge): { style: CombatStyle; skill: string } | undefined {
  const weaponId = self.equipment.weapon?.itemId;
  const offered = stylesOffered(weaponId === undefined ? undefined : know.registry.item(weaponId));
  if (offered.has("rapid")) return undefined;
  const level = (skill: string) => self.skills[skill]?.level ?? 1;
  const xp = (skill: string) => self.skills[skill]?.xp ?? 0;
  const current = (t: { style: CombatStyle }) => (t.style === self.combatStyle ? 0 : 1);
  const ranked = MELEE_TRAINING.filter((t) => offered.has(t.style)).sort((a, b) => level(a.skill) - level(b.skill) || current(a) - current(b) || xp(a.skill) - xp(b.skill));
  return ranked[0];
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

/** A monster's max hit in lifepoints, as the server rolls it (src/game/combat.ts npcAttacksPlayer: maxHitHitpoints of its Strength, no bonus). */
export function npcMaxHit(know: Knowledge, npcRef: string): number {
  const strength = know.registry.npcs.get(npcRef)?.stats?.strength ?? 1;
  return Math.max(1, Math.floor(0.5 + ((strength + 8) * 64) / 640)) * LIFEPOINTS_PER_HITPOINT;
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

/** A prayer as `prayers.json` gives it (the fields a fighter reads). */
interface PrayerLike {
  id: string;
  name: string;
  level: number;
  bonuses?: Record<string, number> | undefined;
}

/**
 * The content's prayers, when the registry has them (the prayer rules, src/game/prayer.ts, read
 * `prayers.json` into `registry.prayers`); none on a server without prayer.
 */
export function prayersOf(know: Knowledge): PrayerLike[] {
  const all = (know.registry as unknown as { prayers?: ReadonlyMap<string, PrayerLike> }).prayers;
  return all === undefined ? [] : [...all.values()];
}

/** player:sync's prayer fields (`prayerPoints`, `activePrayers`), absent on a server without prayer. */
export function prayerState(self: Self): { points: number; active: readonly string[] } | undefined {
  const s = self as Self & { prayerPoints?: number; activePrayers?: string[] };
  return s.prayerPoints === undefined ? undefined : { points: s.prayerPoints, active: s.activePrayers ?? [] };
}

/** The multiplier key (`prayers.json` bonuses) that boosts each melee skill. */
const BOOSTS: Record<string, string> = { attack: "attackMultiplier", strength: "strengthMultiplier", defense: "defenseMultiplier" };

/**
 * The boost prayer to pray in a melee fight: the strongest one at its Prayer level boosting the
 * skill it trains (Strength's when it casts or trains nothing in melee: the hits end fights sooner).
 */
export function boostPrayer(self: Self, know: Knowledge, skill: string | undefined): PrayerLike | undefined {
  const level = self.skills.prayer?.level ?? 1;
  const key = BOOSTS[skill ?? "strength"] ?? BOOSTS.strength!;
  let best: PrayerLike | undefined;
  for (const p of prayersOf(know)) {
    const boost = p.bonuses?.[key];
    if (p.level > level || boost === undefined || boost <= 1) continue;
    if (best === undefined || boost > best.bonuses![key]!) best = p;
  }
  return best;
}

/** Prayer points below this share of its Prayer level: recharge at an altar before the next fight. */
export const RECHARGE_BELOW = 0.25;

/** Whether to go and recharge: points low, an altar in the content, and a prayer it could use. */
export function needsAltar(self: Self, know: Knowledge): boolean {
  const state = prayerState(self);
  if (state === undefined || know.altars.length === 0 || boostPrayer(self, know, undefined) === undefined) return false;
  return state.points < Math.max(1, (self.skills.prayer?.level ?? 1) * RECHARGE_BELOW);
}

/**
 * `prayer:toggle {prayerId, active}`, the prayer rules' event: sent through the agent's link as any
 * event (typed here until the protocol's table in src/game/clientEvents.ts lists it).
 */
export function togglePrayer(send: (type: never, data: never) => void, prayerId: string, active: boolean): void {
  (send as unknown as (type: string, data: object) => void)("prayer:toggle", { prayerId, active });
}
