/**
 * `focus magic`: Magic trained as a player of the genre does from level 1 with little money, on the
 * standard spellbook's Strike spells and the runes it crafts itself:
 * - the spell it trains with (trainingSpell): the most Magic xp for each rune it must craft or buy
 *   (its staff's runes cost nothing), at its Magic level: Wind Strike (an air and a mind rune);
 * - an elemental staff for that spell's element (a Staff of Air: unlimited air runes, so each cast
 *   is one mind rune, one essence) bought as soon as it has the coins (magicStaff), kept for first;
 * - rune essence mined (essenceTarget) and bound at the altar of the spell's rune it holds the fewest
 *   casts of (magicRecipe): air and mind runes in pairs, mind runes alone with the staff;
 * - casting at monsters while it holds runes for a spell (Fight ends a cast-only fight when they run
 *   out; with a staff carried, it wields it: staffToWield).
 * The scripted policy (scripted.ts) asks magicChoice for every option under the focus.
 * Pure decisions from what the agent holds and the content.
 */
import type { Spell } from "../../src/manifests/magicContent.ts";
import type { ProductionRecipe } from "../../src/manifests/production.ts";
import { nameOf, type Knowledge } from "../knowledge.ts";
import type { Ctx } from "./behaviourKit.ts";
import type { GoalChoice, GoalOption, Observation } from "./Brain.ts";
import { castableSpell, type Kit } from "./fighting.ts";
import { offerOf } from "./makingChoice.ts";
import { saleTrip, type Keep } from "./selling.ts";

/** A scored choice, as the scripted policy ranks them. */
type Scored = GoalChoice & { score: number };

/** The chance a Strike spell hits a level-1 monster at Magic 1 (src/game/magic.ts: (1+8)×64 against (1+9)×64): xp per cast is base + 2 × this × max hit ÷ 2. */
const HIT_SHARE = 0.45;

/** The runes of a spell it must supply (not those a staff stands for), with the counts a cast takes. */
function paidRunes(spell: Spell, staffRunes: readonly string[]): { runeId: string; quantity: number }[] {
  return spell.runes.filter((r) => !staffRunes.includes(r.runeId));
}

/** The runes the wielded or carried elemental staff stands for (none without one). */
export function staffRunesHeld(kit: Kit, know: Knowledge): readonly string[] {
  const ids = [kit.weaponId, ...kit.inventory.map((s) => s.itemId)];
  for (const id of ids) {
    const runes = know.registry.magic.staves.get(id ?? "");
    if (runes !== undefined) return runes;
  }
  return [];
}

/**
 * The spell to train Magic with: of the combat spells at its Magic level, the one giving the most
 * xp for each rune it must supply (base xp plus 2 a hitpoint of its expected damage, OSRS's, over
 * the runes a cast takes beyond the staff's): Wind Strike in the default world, with or without a
 * Staff of Air.
 */
export function trainingSpell(kit: Kit, know: Knowledge, staffRunes: readonly string[] = staffRunesHeld(kit, know)): Spell | undefined {
  const magic = kit.skills.magic?.level ?? 1;
  let best: { spell: Spell; worth: number } | undefined;
  for (const spell of know.registry.magic.spells.values()) {
    if (spell.level > magic) continue;
    const runes = paidRunes(spell, staffRunes).reduce((n, r) => n + r.quantity, 0);
    const worth = (spell.baseXp + HIT_SHARE * spell.maxHit) / Math.max(1, runes);
    if (best === undefined || worth > best.worth) best = { spell, worth };
  }
  return best?.spell;
}

/**
 * The elemental staff for the training spell (one standing for the most runes a cast takes), sold
 * by a placed store, and its price: undefined when it holds a staff already or none is sold.
 */
export function staffForSpell(kit: Kit, know: Knowledge): { itemId: string; storeId: string; price: number } | undefined {
  if (staffRunesHeld(kit, know).length > 0) return undefined;
  const spell = trainingSpell(kit, know, []);
  if (spell === undefined) return undefined;
  let best: { itemId: string; storeId: string; price: number; saves: number } | undefined;
  for (const [staffId, runes] of know.registry.magic.staves) {
    const saves = spell.runes.filter((r) => runes.includes(r.runeId)).reduce((n, r) => n + r.quantity, 0);
    const offer = offerOf(know, staffId);
    if (saves === 0 || offer === undefined) continue;
    if (best === undefined || saves > best.saves || (saves === best.saves && offer.price < best.price)) best = { ...offer, saves };
  }
  return best === undefined ? undefined : { itemId: best.itemId, storeId: best.storeId, price: best.price };
}

/** The staff to buy now: the training spell's, among the server's shopping `targets`, with the coins for it. */
export function magicStaff(kit: Kit, know: Knowledge, targets: readonly string[]): { itemId: string; storeId: string; price: number } | undefined {
  const staff = staffForSpell(kit, know);
  return staff !== undefined && targets.includes(staff.itemId) && kit.coins >= staff.price ? staff : undefined;
}

/** Casts of a spell the runes it holds (carried, or `banked`) pay for, rune by rune: how many of each rune's casts. */
function castsOf(kit: Kit, runeId: string, perCast: number, banked: readonly { itemId: string; quantity: number }[] = []): number {
  const have = [...kit.inventory, ...banked].reduce((n, s) => (s.itemId === runeId ? n + s.quantity : n), 0);
  return Math.floor(have / perCast);
}

/**
 * Of the runecrafting recipes among `targets` (the server's making goal), the one binding the
 * training spell's rune it holds the fewest casts of, the staff's runes left out: air and mind in
 * turn for Wind Strike, mind alone with a Staff of Air (the staff it carries, or is about to buy).
 */
export function magicRecipe(kit: Kit, know: Knowledge, targets: readonly string[], staffRunes?: readonly string[]): ProductionRecipe | undefined {
  const spell = trainingSpell(kit, know, staffRunes);
  if (spell === undefined) return undefined;
  const free = staffRunes ?? staffRunesHeld(kit, know);
  const recipes = targets.flatMap((id) => {
    const r = know.registry.production.get(id);
    return r !== undefined && r.skill === "runecrafting" && r.output !== null ? [r] : [];
  });
  let best: { recipe: ProductionRecipe; casts: number } | undefined;
  for (const rune of paidRunes(spell, free)) {
    const recipe = recipes.find((r) => r.output === rune.runeId);
    if (recipe === undefined) continue;
    const casts = castsOf(kit, rune.runeId, rune.quantity);
    if (best === undefined || casts < best.casts) best = { recipe, casts };
  }
  return best?.recipe;
}

/** Of a mining goal's targets, a resource yielding what a runecrafting recipe binds (rune essence). */
export function essenceTarget(know: Knowledge, targets: readonly string[]): string | undefined {
  return targets.find((id) => {
    const yields = new Set((know.registry.resources.get(id)?.harvestYield ?? []).map((y) => y.itemId));
    return [...know.registry.production.values()].some(
      (r) => r.skill === "runecrafting" && (r.essence?.types ?? r.inputs.map((i) => i.itemId)).some((t) => yields.has(t)),
    );
  });
}

/**
 * A carried elemental staff to wield for casting: when the wielded weapon stands for no rune and the
 * staff makes a spell castable, or more casts of the one it would cast (its runes no longer spent).
 */
export function staffToWield(kit: Kit & { inventory: readonly { itemId: string; slot?: number }[] }, know: Knowledge): string | undefined {
  if (know.registry.magic.staves.has(kit.weaponId ?? "")) return undefined;
  for (const s of kit.inventory) {
    if (!know.registry.magic.staves.has(s.itemId)) continue;
    if (castableSpell({ ...kit, weaponId: s.itemId }, know) !== undefined) return s.itemId;
  }
  return undefined;
}

/** The kit as it will cast: with the carried staff wielded (staffToWield), as a fight does first. */
export function castingKit(kit: Kit, know: Knowledge): Kit {
  const staff = staffToWield(kit, know);
  return staff === undefined ? kit : { ...kit, weaponId: staff };
}

/** Casts a magic-focused agent wants in hand before a fight is worth the walk (fewer: it mines and crafts first). */
export const MIN_FIGHT_CASTS = 10;

/** Scores under the magic focus, before focus.ts's FOCUS_BONUS: above quests (86–88) with it, below upkeep (a full inventory, 90+). */
export const MAGIC_SCORES = {
  /** Banking clutter of MAGIC_SCORES.clutterSlots or more before a load of essence: above mining with its bonus. */
  bank: 96,
  clutterSlots: 5,
  /** The staff of the training spell: before anything but a full inventory. */
  staff: 88,
  /** The pickaxe it mines essence with (the ordinary missing tool's). */
  tool: 85,
  /** A fight casting, with runes for MIN_FIGHT_CASTS. */
  cast: 80,
  /** Binding the essence it carries. */
  craft: 76,
  /** Mining essence (once the staff is held or cannot be had: before, quests paying coins come first). */
  mine: 75,
  mineBeforeStaff: 66,
  /** A fight without runes (melee trains no Magic): below gathering (60 less the level) and quests. A level-1 fighter
   * left the first cows at 27 % health (the 08:56 seed-1 trial run), and every goal for 70 ticks after with them. */
  melee: 50,
  /** A fight with runes for fewer than MIN_FIGHT_CASTS casts. */
  fewCasts: 65,
  /** A quest that pays nothing toward Magic (no coins, runes, or Magic or Runecrafting xp), capped below the magic goals. */
  otherQuest: 68,
} as const;

/**
 * The magic focus's say on a goal option (scripted.ts asks for each under `focus magic`): a choice
 * and its score (before FOCUS_BONUS), `null` to leave the option out, or undefined for the ordinary
 * score. `ordinary` is that score, for the options it only bounds.
 */
export function magicChoice(
  option: GoalOption,
  obs: Observation,
  know: Knowledge,
  ordinary: (option: GoalOption) => Scored | undefined,
): Scored | null | undefined {
  const kit: Kit = { skills: obs.skills, inventory: obs.inventory, weaponId: obs.equipment.weapon, coins: obs.coins };
  const staff = staffForSpell(kit, know);
  // Coins it keeps for the staff: a better pickaxe leaves them.
  const keep = staff?.price ?? 0;
  switch (option.type) {
    case "shopping": {
      const buy = obs.freeSlots > 0 ? magicStaff(kit, know, option.targets) : undefined;
      if (buy !== undefined)
        return { type: "shopping", target: buy.itemId, score: MAGIC_SCORES.staff, reason: `a ${nameOf(know, buy.itemId)} for casting, ${buy.price} coins` };
      // The pickaxe for essence, with the coins for it (the ordinary purchase keeps coins for tools of making).
      const pick = obs.freeSlots > 0 ? essenceTool(know, obs, option.targets) : undefined;
      if (pick !== undefined)
        return {
          type: "shopping",
          target: pick.itemId,
          score: MAGIC_SCORES.tool,
          reason: `a ${nameOf(know, pick.itemId)} to mine essence, ${pick.price} coins`,
        };
      // Else only what casting takes: runes once the staff is held (before, they spend its coins on what
      // it gives for nothing), a better pickaxe (tools.json's tiers) with the staff's coins left. No other
      // tool: a caster banks those (casterKeep), and would buy them again.
      const casting = option.targets.filter((id) => know.registry.magic.runes.has(id) || minesEssenceWith(know, id));
      const plain = casting.length === 0 ? undefined : ordinary({ ...option, targets: casting });
      if (plain?.target === undefined) return null;
      if (know.registry.magic.runes.has(plain.target)) return staff === undefined ? plain : null;
      if (!minesEssenceWith(know, plain.target)) return null;
      const price = offerOf(know, plain.target)?.price ?? 0;
      return obs.coins - price >= keep ? plain : null;
    }
    case "banking": {
      // Clutter (hides, logs, a quest's leftovers) costs every load of essence its slots: banked first, once.
      const essence = essenceTarget(know, [...know.registry.resources.keys()]);
      const carriesEssence = obs.inventory.some((s) => (know.registry.resources.get(essence ?? "")?.harvestYield ?? []).some((y) => y.itemId === s.itemId));
      // Only once the staff is held (or none is sold): before, its quests' fights want the food and tools.
      if (
        staff !== undefined ||
        carriesEssence ||
        obs.freeSlots === 0 ||
        obs.recentGoals[0]?.type === "banking" ||
        casterClutter(know, kit) < MAGIC_SCORES.clutterSlots
      )
        return undefined;
      return { type: "banking", score: MAGIC_SCORES.bank, reason: `bank ${casterClutter(know, kit)} slots of clutter: room for essence` };
    }
    case "mining": {
      const target = essenceTarget(know, option.targets);
      if (target === undefined || obs.freeSlots === 0) return undefined;
      const score = staff === undefined ? MAGIC_SCORES.mine : MAGIC_SCORES.mineBeforeStaff;
      return { type: "mining", target, score, reason: `mine ${nameOf(know, target)} for runes (mining ${obs.skills.mining?.level ?? 1})` };
    }
    case "making": {
      // The staff about to be bought counts as held: mind runes only once it can pay for it.
      const free = staff !== undefined && obs.coins >= staff.price ? (know.registry.magic.staves.get(staff.itemId) ?? []) : undefined;
      const recipe = magicRecipe(kit, know, option.targets, free);
      if (recipe === undefined) return undefined;
      return { type: "making", target: recipe.id, score: obs.freeSlots === 0 ? 93 : MAGIC_SCORES.craft, reason: `make ${recipe.name} for casting` };
    }
    case "combat": {
      const plain = ordinary(option);
      if (plain === undefined) return null;
      const casting = castingKit(kit, know);
      const spell = castableSpell(casting, know);
      if (spell === undefined) return { ...plain, score: Math.min(plain.score, MAGIC_SCORES.melee) };
      const casts = Math.min(...spell.runes.filter((r) => !staffRunesHeld(casting, know).includes(r.runeId)).map((r) => castsOf(kit, r.runeId, r.quantity)));
      // A few casts are no trip: essence mined and bound first (the fight ends when its runes do).
      if (casts < MIN_FIGHT_CASTS) return { ...plain, score: Math.min(plain.score, MAGIC_SCORES.fewCasts) };
      return {
        ...plain,
        score: Math.max(plain.score, MAGIC_SCORES.cast),
        reason: `cast ${spell.name} at ${plain.target === undefined ? "monsters" : nameOf(know, plain.target)} (${Number.isFinite(casts) ? casts : "unlimited"} casts)`,
      };
    }
    case "selling": {
      // Short of the staff: a sale of what it does not cast with, when it brings the staff within reach.
      const sale = staffSale(obs, know);
      if (sale === undefined) return undefined;
      const trip = saleTrip(obs.inventory, know, obs.position, sale.keep, sale.release);
      if (trip === undefined || !option.targets.includes(trip.storeId) || obs.coins + trip.coins < sale.price) return undefined;
      return {
        type: "selling",
        target: trip.storeId,
        score: MAGIC_SCORES.staff,
        reason: `sell ${trip.itemIds.map((id) => nameOf(know, id)).join(", ")} (about ${trip.coins} coins) for the staff: ${obs.coins} of ${sale.price} coins`,
      };
    }
    case "quest": {
      // The quests paying toward Magic first (coins for the staff, runes, Magic xp); the others below its goals.
      const paying = option.targets.filter((id) => paysTowardMagic(know, id));
      const first = paying.length > 0 ? ordinary({ ...option, targets: paying }) : undefined;
      if (first !== undefined) return first;
      const plain = ordinary(option);
      return plain === undefined ? null : { ...plain, score: Math.min(plain.score, MAGIC_SCORES.otherQuest) };
    }
    default:
      return undefined;
  }
}

/**
 * A caster short of its staff's price may sell what it keeps when banking but does not cast with
 * (a bow and its arrows, the tools of other skills): the items released, with the essence it mines
 * held back (`keep`). Undefined when not under `focus magic`, with the staff held, none sold, or the
 * coins for it. A seed-1 run (results-ladder-magic-s28.json) sat at 136-141 of the Staff of Air's
 * 150 coins from tick 2,000 to 7,000 carrying a shortbow and 50 arrows, and cast without the staff.
 */
export function staffSale(
  obs: Pick<Observation, "focus" | "skills" | "inventory" | "equipment" | "coins">,
  know: Knowledge,
): { keep: Keep; release: Keep; price: number } | undefined {
  if (obs.focus !== "magic") return undefined;
  const kit: Kit = { skills: obs.skills, inventory: obs.inventory, weaponId: obs.equipment.weapon, coins: obs.coins };
  const staff = staffForSpell(kit, know);
  if (staff === undefined || obs.coins >= staff.price) return undefined;
  const cast = casterKeep(know, kit);
  const essence = new Set(
    [...know.registry.production.values()].filter((r) => r.skill === "runecrafting").flatMap((r) => r.essence?.types ?? r.inputs.map((i) => i.itemId)),
  );
  return {
    keep: (id) => essence.has(id),
    release: (id) => !cast(id) && (know.registry.item(id)?.healAmount ?? 0) === 0,
    price: staff.price,
  };
}

/** Whether a quest's rewards help a caster: coins (the staff, runes), runes, or Magic or Runecrafting xp. */
export function paysTowardMagic(know: Knowledge, questId: string): boolean {
  const rewards = know.registry.quests.quests.get(questId)?.rewards;
  if (rewards === undefined) return true;
  return (
    rewards.items.some((i) => i.itemId === "coins" || know.registry.magic.runes.has(i.itemId)) ||
    (rewards.xp.magic ?? 0) > 0 ||
    (rewards.xp.runecrafting ?? 0) > 0
  );
}

/** The tool of the resource yielding essence (a bronze pickaxe): undefined when the content has none. */
function essenceToolId(know: Knowledge): string | undefined {
  const essence = essenceTarget(know, [...know.registry.resources.keys()]);
  return essence === undefined ? undefined : know.registry.resources.get(essence)?.toolRequired;
}

/** Whether an item is a tool of the essence's kind (any pickaxe, as the server's gathering takes any tier). */
export function minesEssenceWith(know: Knowledge, itemId: string): boolean {
  const tool = essenceToolId(know);
  return tool !== undefined && (itemId === tool || itemId.endsWith(`_${tool.split("_").pop()}`));
}

/** The essence's tool to buy: none of its kind held, sold among `targets`, and the coins for it. */
export function essenceTool(
  know: Knowledge,
  obs: Pick<Observation, "coins" | "inventory" | "equipment">,
  targets: readonly string[],
): { itemId: string; storeId: string; price: number } | undefined {
  const tool = essenceToolId(know);
  if (tool === undefined || !targets.includes(tool)) return undefined;
  if ([...obs.inventory.map((s) => s.itemId), ...Object.values(obs.equipment)].some((id) => minesEssenceWith(know, id))) return undefined;
  const offer = offerOf(know, tool);
  return offer !== undefined && obs.coins >= offer.price ? offer : undefined;
}

/** What a cast-only fight picks up: coins (the staff, runes) and runes; hides, meat and bones would take the essence's slots. */
export function casterLoot(ctx: Ctx, itemId: string | undefined): boolean {
  return itemId === "coins" || (itemId !== undefined && ctx.know.registry.magic.runes.has(itemId));
}

/** Food a caster keeps when it banks (its fights are at range on weak monsters; the slots go to essence). */
export const CASTER_FOOD = 2;

/**
 * What a caster keeps when it banks: its pickaxe (any for essence), an elemental staff, the runes
 * of its training spell that its staff does not stand for, and coins; every other tool, weapon and
 * rune goes to the bank, so a load of essence takes the whole pack (a woodsman's pack kept 18 slots
 * of tools, gear, runes and food: loads of 10 essence in the 09:06 run).
 */
export function casterKeep(know: Knowledge, kit: Kit): (itemId: string) => boolean {
  const staff = staffRunesHeld(kit, know);
  const spell = trainingSpell(kit, know, staff);
  const runes = new Set(spell === undefined ? [] : paidRunes(spell, staff).map((r) => r.runeId));
  return (itemId) => itemId === "coins" || minesEssenceWith(know, itemId) || know.registry.magic.staves.has(itemId) || runes.has(itemId);
}

/** Slots a caster's bank visit would free for essence (behaviours.ts Bank with casterKeep: all but one of each kept item and CASTER_FOOD food). */
export function casterClutter(know: Knowledge, kit: Kit): number {
  const keep = casterKeep(know, kit);
  const kept = new Set<string>();
  let food = 0;
  let clutter = 0;
  for (const s of kit.inventory) {
    if (keep(s.itemId) && !kept.has(s.itemId)) {
      kept.add(s.itemId);
      continue;
    }
    if ((know.registry.item(s.itemId)?.healAmount ?? 0) > 0 && food < CASTER_FOOD) {
      food++;
      continue;
    }
    clutter++;
  }
  return clutter;
}
