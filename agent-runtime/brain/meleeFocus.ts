/**
 * `focus melee`'s side of quests, lamps and food (focus.ts, questChoice.ts, scripted.ts, Agent.ts):
 * as a player of the genre sets out for 10/10/10, it takes the quests whose rewards are melee
 * experience (Attack, Strength, Defence, and the xp lamps it rubs on its lowest melee skill) as soon
 * as it meets their requirements, best melee xp per expected tick first, and the quests they require
 * (Supper at the Kettle before Tusks in the Hollow); it trains the melee level a quest asks for
 * (Attack 3, Defence 5) before leading with Strength; and it cooks the meat the cows drop before it
 * fights on, so a fight is not left for want of food. Pure decisions from the content and what the
 * agent sees; no sending.
 *
 * Measured (bench/agents/README.md, "the focused ladder with quest xp"): training alone cannot reach
 * melee 10 in an hour of game time in this world (the floor is 62-66 min); the default world's quests
 * give 1,050 melee xp and two 250-xp lamps of the 3,462 it takes.
 */
import { stylesOffered, type CombatStyle } from "../../src/game/combatStyles.ts";
import type { Self } from "../AgentView.ts";
import type { Knowledge } from "../knowledge.ts";
import type { Observation } from "./Brain.ts";
import { boostPrayer, FLEE_BELOW, MELEE_TRAINING, meleeGear, meleeRates, npcMaxHit, TRAINING_LEAD, trainingStyle } from "./fighting.ts";
import { XP_FOR_LEVEL } from "../../src/game/skills.ts";
import { maxHitHitpoints } from "../../src/game/combat.ts";
// Health and healing are shown in lifepoints, ten to a hitpoint.
import { LIFEPOINTS_PER_HITPOINT } from "../../src/game/world/entities.ts";
import type { Focus } from "./Brain.ts";
import { offerOf } from "./makingChoice.ts";
import { questSkillNeeds, stagesFrom } from "./questNeeds.ts";

/** The melee skills, in the order the fighter leads them (fighting.ts MELEE_TRAINING). */
export const MELEE_SKILLS = ["strength", "attack", "defense"] as const;

/** The xp an item gives as a lamp (src/game/dialogue.ts lampXp: its `lampXp`, or `xp_lamp_<xp>`); undefined for any other item. */
export function lampXpOf(know: Knowledge, itemId: string): number | undefined {
  const item = know.registry.item(itemId);
  if (item === undefined) return undefined;
  if ("lampXp" in item && typeof item.lampXp === "number" && item.lampXp > 0) return item.lampXp;
  const m = /^xp_lamp_(\d+)$/.exec(itemId);
  return m !== null && Number(m[1]) > 0 ? Number(m[1]) : undefined;
}

/**
 * The skill a lamp's xp goes to: its lowest melee skill (ties in the order it leads them), which
 * is what the ladder's melee milestone waits on; under `focus magic`, Magic; under `focus making`,
 * the lower of Smithing and Crafting.
 */
export function lampSkill(skills: Record<string, { level: number; xp: number }>, focus: Focus | undefined): string {
  const xp = (s: string) => skills[s]?.xp ?? 0;
  const lowest = (of: readonly string[]) => [...of].sort((a, b) => xp(a) - xp(b))[0]!;
  if (focus === "magic") return "magic";
  if (focus === "making") return lowest(["smithing", "crafting"]);
  return lowest(MELEE_SKILLS);
}

/** The melee xp a quest's rewards give: Attack, Strength and Defence xp, and its lamps (rubbed on a melee skill). */
export function questMeleeXp(know: Knowledge, questId: string): number {
  const quest = know.registry.quests.quests.get(questId);
  if (quest === undefined) return 0;
  const xp = Object.entries(quest.rewards.xp).reduce((n, [skill, v]) => n + ((MELEE_SKILLS as readonly string[]).includes(skill.toLowerCase()) ? v : 0), 0);
  return xp + quest.rewards.items.reduce((n, s) => n + (lampXpOf(know, s.itemId) ?? 0) * s.quantity, 0);
}

/**
 * Ticks a quest is expected to take from a stage on (the start's talk first when not started):
 * a rough figure for ordering, from the ladder's measured quests (bench/agents/README.md: 6 to 333
 * ticks a quest that needs no fight it cannot win): a talk 30, a walk into an area 150, a use 50, a
 * kill 30 a monster level, a gathered item 25, a made one 20.
 */
export function expectedQuestTicks(know: Knowledge, questId: string, fromStage?: string | null): number {
  const quest = know.registry.quests.quests.get(questId);
  if (quest === undefined) return Infinity;
  let ticks = fromStage === undefined || fromStage === null ? 30 : 0;
  for (const s of stagesFrom(quest.stages, fromStage)) {
    const count = s.count ?? 1;
    if (s.type === "dialogue" || s.type === "give") ticks += 30;
    else if (s.type === "reach") ticks += 150;
    else if (s.type === "kill") ticks += count * 30 * (know.registry.npcs.get(s.target ?? "")?.stats?.level ?? 1);
    else if (s.type === "gather") ticks += count * 25;
    else if (s.type === "make") ticks += count * 20;
    else ticks += 50;
  }
  return ticks;
}

/**
 * What a coin a quest gives is worth to a melee trainer, in melee xp: it buys the food, the weapon
 * and the armour it fights with. A loaf (40 lifepoints for 12 coins) pays for about 40 xp of cow
 * fighting at 3/4/2 with a bronze sword (a cow costs ~35 lifepoints for 32 xp: fighting.ts
 * meleeRates), some 3 xp a coin; one is the floor of that.
 */
export const COIN_MELEE_XP = 1;

/**
 * A quest worth less than this (melee xp a tick of its expected time) does not serve `focus melee`:
 * training gives ~0.4 xp a tick at Strength 4-10 (bench/agents/README.md), and Orla's First
 * Commission's 60 coins, 55 of them spent on a pickaxe and a hammer, are not worth its mining and
 * smithing (0.02), where Keeping Your Footing's 75 coins for a walk and two obstacles are (0.24).
 */
export const MIN_MELEE_VALUE = 0.1;

/** The production recipe a quest's make stage makes its item with (its tools, inputs and fee). */
function makeRecipe(know: Knowledge, itemId: string) {
  return [...know.registry.production.values()].find((r) => r.output === itemId);
}

/**
 * The tools a quest's gathering and making stages need that it holds none of, at the cheapest
 * offer of each (Infinity for a tool no store sells): Supper at the Kettle's small fishing net.
 */
export function questToolsToBuy(know: Knowledge, obs: Pick<Observation, "inventory" | "equipment">, questId: string): number {
  const quest = know.registry.quests.quests.get(questId);
  if (quest === undefined) return 0;
  const held = new Set([...obs.inventory.map((s) => s.itemId), ...Object.values(obs.equipment)]);
  const tools = new Set<string>();
  for (const stage of quest.stages) {
    if (stage.type === "gather" && stage.target !== undefined) {
      const nodes = [...know.registry.resources.values()].filter((r) => r.harvestYield.some((y) => y.itemId === stage.target));
      if (nodes.length > 0 && !nodes.some((r) => held.has(r.toolRequired))) tools.add(nodes[0]!.toolRequired);
    }
    if (stage.type === "make" && stage.target !== undefined)
      for (const tool of makeRecipe(know, stage.target)?.tools ?? []) if (!held.has(tool)) tools.add(tool);
  }
  let cost = 0;
  for (const tool of tools) cost += offerOf(know, tool)?.price ?? Infinity;
  return cost;
}

/** The coins a quest gives less the tools it needs and holds none of (questToolsToBuy; a tool no store sells makes the coins count for nothing). */
export function questNetCoins(know: Knowledge, obs: Pick<Observation, "inventory" | "equipment">, questId: string): number {
  const quest = know.registry.quests.quests.get(questId);
  if (quest === undefined) return 0;
  const coins = quest.rewards.items.reduce((n, s) => n + (s.itemId === "coins" ? s.quantity : 0), 0);
  if (coins === 0) return 0;
  return Math.max(0, coins - questToolsToBuy(know, obs, questId));
}

/**
 * A quest's worth to a melee trainer: its melee xp, that of the quests not completed that require
 * it (Supper at the Kettle opens Tusks in the Hollow), and its coins less the tools it needs
 * (questNetCoins, at COIN_MELEE_XP), a tick of its expected time; 0 below MIN_MELEE_VALUE.
 */
export function meleeQuestValue(know: Knowledge, obs: Pick<Observation, "quests" | "inventory" | "equipment">, questId: string): number {
  const status = new Map((obs.quests ?? []).map((q) => [q.id, q]));
  const entry = status.get(questId);
  let xp = questMeleeXp(know, questId) + questNetCoins(know, obs, questId) * COIN_MELEE_XP;
  for (const q of know.registry.quests.quests.values())
    if (q.requirements.quests.includes(questId) && status.get(q.id)?.status !== "completed") xp += questMeleeXp(know, q.id);
  if (xp === 0) return 0;
  const value = xp / Math.max(1, expectedQuestTicks(know, questId, entry?.status === "in_progress" ? entry.stage : undefined));
  return value < MIN_MELEE_VALUE ? 0 : value;
}

/** Whether a quest serves `focus melee`: it gives melee xp or a lamp, opens a quest that does, or coins enough for its time (meleeQuestValue). */
export function servesMeleeQuest(know: Knowledge, obs: Pick<Observation, "quests" | "inventory" | "equipment">, questId: string | undefined): boolean {
  return questId !== undefined && meleeQuestValue(know, obs, questId) > 0;
}

/**
 * Under `focus melee`, the melee level a quest giving melee xp asks for, nearest first (Attack 3
 * for Tusks in the Hollow, Defence 5 for The Drowned Watch: 700 and 450 melee xp): the fight trains
 * it before leading with Strength (fight.ts), since the quest's xp comes sooner. Before, only a
 * quest with no fight counted, and a goal that said "for Tusks in the Hollow: Attack 3" trained
 * Defence for The Drowned Watch at Attack 2 (a run of 2026-11-29 15:47). Undefined otherwise.
 */
export function meleeQuestSkill(obs: Pick<Observation, "quests" | "skills" | "focus">, know: Knowledge): { skill: string; level: number } | undefined {
  if (obs.focus !== "melee") return undefined;
  const need = questSkillNeeds(obs, know).find(
    (n) => (MELEE_SKILLS as readonly string[]).includes(n.skill === "defence" ? "defense" : n.skill) && questMeleeXp(know, n.questId) > 0,
  );
  return need === undefined ? undefined : { skill: need.skill, level: need.level };
}

/**
 * Xp short of a quest's level that is trained at once, once the aggressive style hits 2 hitpoints
 * (Strength 4), whatever the max hit of the style that trains it (Attack 2 to 3 after A Settler's
 * Charter's 100 Attack xp: 74 xp, two or three cows). Before Strength 4 every style hits 1, and the
 * detour only put off the Strength that doubles every hit (a run of 16:33 trained Attack at 2/1/1).
 */
export const QUICK_DETOUR_XP = 100;

/**
 * The style that trains a melee level a quest asks for (meleeQuestSkill), while the level is short
 * of it and the wielded weapon offers that style (the server's table, src/game/combatStyles.ts);
 * undefined otherwise (then it trains as fighting.ts trainingStyle says). Attack or Defence is
 * trained so only when the xp short is a quick detour (QUICK_DETOUR_XP) or its style's max hit is
 * 2 hitpoints or more (maxHitHitpoints with no invisible Strength levels): at a max hit of 1 a cow
 * took 119 ticks in the defensive style against 60 in the aggressive one at Strength 5, and took
 * more of its health (a run of 2026-11-29 15:47 trained Defence so at 2/5/2).
 */
export function questStyle(self: Self, know: Knowledge, need: { skill: string; level: number } | undefined): { style: CombatStyle; skill: string } | undefined {
  if (need === undefined) return undefined;
  const skill = need.skill === "defence" ? "defense" : need.skill;
  const mine = self.skills[skill];
  if ((mine?.level ?? 1) >= need.level) return undefined;
  const weaponId = self.equipment.weapon?.itemId;
  const weapon = weaponId === undefined ? undefined : know.registry.item(weaponId);
  if (skill !== "strength") {
    const short = (XP_FOR_LEVEL[need.level] ?? Infinity) - (mine?.xp ?? 0);
    const strength = self.skills.strength?.level ?? 1;
    const maxHit = maxHitHitpoints(strength, weapon?.bonuses?.strength ?? 0);
    // The aggressive style's max hit (its +3 invisible Strength levels): a detour waits until it is 2.
    const leadHit = maxHitHitpoints(strength, weapon?.bonuses?.strength ?? 0, 3);
    if (maxHit < 2 && (short > QUICK_DETOUR_XP || leadHit < 2)) return undefined;
  }
  const offered = stylesOffered(weapon);
  if (offered.has("rapid")) return undefined;
  const training = MELEE_TRAINING.find((t) => t.skill === skill);
  return training !== undefined && offered.has(training.style) ? training : undefined;
}

/**
 * Health share a quest through an area of aggressive monsters waits for (dangerousRoute): the share
 * the agent tops up to between goals (Agent reflexes TOP_UP_BELOW); 90 % held The Drowned Watch back
 * to tick 5,237 in a run of 16:40, as the fighter is seldom above it with food in hand.
 */
export const DANGER_HEALTH = 0.75;
/**
 * Lifepoints of food it carries into such an area: the hardest hit of the aggressive monsters on
 * the way (the Sunken Cistern's horror hits 7 hitpoints: two loaves or three meals), so that no hit
 * leaves it with nothing to eat (the reflexes leave a fight only then). Three meals (90) before,
 * whatever the food: none was eaten on the way in 20 runs of 02:30-03:05, and 160-300 ticks of
 * fishing went for that food in a third of them.
 */
export function dangerFood(know: Knowledge, stages: readonly { type: string; area?: string | undefined }[]): number {
  return Math.max(0, ...routeAggressors(know, stages).map((mobId) => npcMaxHit(know, mobId)));
}

/** The monsters that attack on sight in the areas a quest's `reach` stages lead into. */
function routeAggressors(know: Knowledge, stages: readonly { type: string; area?: string | undefined }[]): string[] {
  const areas = new Set(stages.filter((s) => s.type === "reach").map((s) => s.area));
  return know.registry.areas
    .filter((a) => areas.has(a.id))
    .flatMap((a) => a.mobSpawns.map((m) => m.mobId))
    .filter((mobId) => know.registry.npcs.get(mobId)?.combat?.aggressive === true);
}

/** An aggressive monster whose max hit is this share of its health or more makes an area dangerous. */
const DANGER_HIT_SHARE = 0.2;

/**
 * Whether quest stages lead into an area whose monsters attack on sight and hit hard (a `reach`
 * stage's area spawns an aggressive monster whose max hit is DANGER_HIT_SHARE of `maxHealth` or
 * more): The Drowned Watch's walk to the Sunken Cistern's gate passes drowned sentries of level 47
 * that hit 5 hitpoints; begun at 80 % health, a run of 16:33 left it at the last ladder and took
 * 1,226 ticks over it. (Hollowbrook Woods' cutpurses hit 2.)
 */
export function dangerousRoute(know: Knowledge, stages: readonly { type: string; area?: string | undefined }[], maxHealth: number): boolean {
  return routeAggressors(know, stages).some((mobId) => npcMaxHit(know, mobId) >= maxHealth * DANGER_HIT_SHARE);
}

/**
 * What a quest's fight against a monster hitting 2 hitpoints or more really costs over meleeRates'
 * reckoning: the walk between its monsters and the attacks its meals delay (src/game/items.ts
 * EAT_ATTACK_DELAY_TICKS). A Tusks in the Hollow boar took about 130 lifepoints at 8/9/7 and at
 * 3/7/4 in runs of 16:26 and 17:05 where the reckoning said 87 and 141, and both fights were left
 * at the second boar. Not for the monsters hitting 1 (A Settler's rats, Hides' cows): there the
 * reckoning held, and a margin kept the rats unwinnable at 1/1/1 with five loaves (16:40).
 */
export const QUEST_FIGHT_MARGIN = 1.5;

/**
 * The lifepoints a kill of `npcRef` costs the agent at its levels and gear (fighting.ts meleeRates:
 * what it takes a tick, for the ticks it takes to deal the monster's health), in the style its
 * fights lead with (fighting.ts trainingStyle: aggressive, +3 invisible Strength levels, until
 * Strength is TRAINING_LEAD ahead of Attack; without them a boar was reckoned at a max hit of 1
 * hitpoint up to Strength 7, where the aggressive style hits 2 from Strength 4). A monster hitting 2
 * hitpoints or more costs QUEST_FIGHT_MARGIN times the reckoning (its own walk, the meals' delay).
 */
export function killCost(know: Knowledge, obs: Pick<Observation, "skills" | "equipment">, npcRef: string): number {
  const lv = (skill: string) => obs.skills[skill]?.level ?? 1;
  const style: CombatStyle = lv("strength") < Math.min(10, lv("attack") + TRAINING_LEAD) ? "aggressive" : "accurate";
  const r = meleeRates(obs.skills, know, npcRef, meleeGear(know, obs.equipment), style);
  const ticks = ((know.registry.npcs.get(npcRef)?.stats?.health ?? 1) * LIFEPOINTS_PER_HITPOINT) / Math.max(0.01, r.dealt);
  return r.taken * ticks * (npcMaxHit(know, npcRef) >= 2 * LIFEPOINTS_PER_HITPOINT ? QUEST_FIGHT_MARGIN : 1);
}

/** What questFightsWinnable reads of the agent. */
export type FighterObs = Pick<Observation, "focus" | "skills" | "health" | "inventory" | "combatLevel" | "maxHealth" | "equipment" | "quests">;

/** The lifepoints of food it carries (anything that heals, at its heal amount). */
export function foodLifepoints(know: Knowledge, inventory: Observation["inventory"]): number {
  return inventory.reduce((n, slot) => n + (know.registry.item(slot.itemId)?.healAmount ?? 0) * LIFEPOINTS_PER_HITPOINT * slot.quantity, 0);
}

/**
 * The lifepoints of food it lacks to win a quest's fights from a stage on (0: winnable now), under
 * `focus melee`: the fights' cost (fighting.ts meleeRates: the lifepoints a kill costs at its levels,
 * the kills its current stage still needs) less what it may spend, its health above the share where
 * it leaves a fight (fighting.ts FLEE_BELOW) and its food. Tusks in the Hollow's two boars of level 6
 * cost a level-3 fighter some 400 lifepoints each, and the quest waits until its levels and food make
 * them winnable (the quest run of 05:44 lost three fights to them). A way through an area where
 * monsters attack on sight (dangerousRoute) needs dangerFood in hand and food to top up to
 * DANGER_HEALTH besides. 0 under another focus (questChoice.ts's own margin holds).
 */
export function questFoodShort(know: Knowledge, obs: FighterObs, questId: string, fromStage?: string | null): number {
  if (obs.focus !== "melee") return 0;
  const quest = know.registry.quests.quests.get(questId);
  if (quest === undefined) return 0;
  const left = stagesFrom(quest.stages, fromStage);
  // The kills its current stage has counted already (quest:list's progress).
  const entry = (obs.quests ?? []).find((q) => q.id === questId);
  const counted = entry?.stage === left[0]?.id ? (entry?.progress?.count ?? 0) : 0;
  // The monster it trains on counts too: Hides for the Vats' two cows at 2/1/1, unarmed and with
  // nothing to eat, were a losing fight of 386 ticks in a run of 19:15. (They were left out when a
  // fighter never laid in food: Hides waited for it until tick 6,111 in a run of 12:32; now
  // meleeFood.ts questProvision buys or fishes it.)
  let cost = 0;
  left.forEach((s, i) => {
    if (s.type !== "kill" || s.target === undefined) return;
    const kills = Math.max(0, (s.count ?? 1) - (i === 0 ? counted : 0));
    cost += kills * killCost(know, obs, s.target);
  });
  const food = foodLifepoints(know, obs.inventory);
  const short = cost > 0 ? Math.max(0, cost - (obs.health - obs.maxHealth * FLEE_BELOW) - food) : 0;
  // A way through an area where monsters attack on sight: at DANGER_HEALTH with dangerFood in hand.
  // Past the `reach`, the stages there (the cistern's gate) are still inside: all but the talks left count.
  const inside = left.some((s) => s.type !== "dialogue" && s.type !== "give");
  if (!inside || !dangerousRoute(know, quest.stages, obs.maxHealth)) return short;
  return Math.max(short, dangerFood(know, quest.stages) + Math.max(0, obs.maxHealth * DANGER_HEALTH - obs.health) - food);
}

/**
 * Under `focus melee`, whether it can win a quest's fights from a stage on with the health and food
 * it has now (questFoodShort is 0), and, through an area where monsters attack on sight, is at
 * DANGER_HEALTH (the reflexes top it up from its food between goals). Always true under another focus.
 */
export function questFightsWinnable(know: Knowledge, obs: FighterObs, questId: string, fromStage?: string | null): boolean {
  if (obs.focus !== "melee") return true;
  if (questFoodShort(know, obs, questId, fromStage) > 0) return false;
  const quest = know.registry.quests.quests.get(questId);
  if (quest === undefined) return true;
  const inside = stagesFrom(quest.stages, fromStage).some((s) => s.type !== "dialogue" && s.type !== "give");
  return !(inside && dangerousRoute(know, quest.stages, obs.maxHealth) && obs.health < obs.maxHealth * DANGER_HEALTH);
}

/** Xp at level 10, the ladder's melee milestone (src/game/skills.ts XP_FOR_LEVEL[10]). */
const XP_AT_10 = XP_FOR_LEVEL[10]!;

/**
 * Under `focus melee`, the melee xp the quests not completed yet still give each skill (Tusks in
 * the Hollow's 250 Strength, Hides for the Vats' 150 Strength and 150 Defence, ...; lamps left out:
 * they go to the lowest skill). Empty under another focus.
 */
export function pendingQuestXp(know: Knowledge, obs: Pick<Observation, "focus" | "quests">): Record<string, number> {
  if (obs.focus !== "melee") return {};
  const done = new Set((obs.quests ?? []).filter((q) => q.status === "completed").map((q) => q.id));
  const out: Record<string, number> = {};
  for (const quest of know.registry.quests.quests.values()) {
    if (done.has(quest.id)) continue;
    for (const [skill, xp] of Object.entries(quest.rewards.xp)) {
      const s = skill.toLowerCase() === "defence" ? "defense" : skill.toLowerCase();
      if ((MELEE_SKILLS as readonly string[]).includes(s)) out[s] = (out[s] ?? 0) + xp;
    }
  }
  return out;
}

/**
 * The style to train when the quests to come will take a melee skill to level 10 by themselves
 * (its xp and their pending xp reach level 10's): that skill is left out of the ordinary order
 * (fighting.ts trainingStyle, as if at 10), so its fights go to the others; in the runs of 12:41
 * Strength ended at 11 with Attack at 7 and 8 (Tusks' and Hides' Strength xp came on top of
 * trained levels). Undefined when no skill is so covered, or all three are (the ordinary order).
 */
export function questBudgetStyle(self: Self, know: Knowledge, pending: Record<string, number>): { style: CombatStyle; skill: string } | undefined {
  const covered = MELEE_SKILLS.filter((s) => (self.skills[s]?.level ?? 1) < 10 && (self.skills[s]?.xp ?? 0) + (pending[s] ?? 0) >= XP_AT_10);
  if (covered.length === 0 || MELEE_SKILLS.every((s) => covered.includes(s) || (self.skills[s]?.level ?? 1) >= 10)) return undefined;
  const skills = { ...self.skills };
  for (const s of covered) skills[s] = { level: 10, xp: XP_AT_10 };
  return trainingStyle({ ...self, skills }, know);
}

/**
 * The items the quests not completed yet make things from (Hides for the Vats: the cowhides it tans,
 * the leather it sews), as many as its make stages take: kept when it banks for room under `focus melee` (a run of 12:47
 * banked its two cowhides and its tanning stage failed `nothing to make`).
 */
export function questMakeInputs(know: Knowledge, obs: Pick<Observation, "quests">): Map<string, number> {
  const done = new Set((obs.quests ?? []).filter((q) => q.status === "completed").map((q) => q.id));
  const out = new Map<string, number>();
  for (const quest of know.registry.quests.quests.values()) {
    if (done.has(quest.id)) continue;
    for (const stage of quest.stages) {
      if (stage.type !== "make" || stage.target === undefined) continue;
      const recipe = makeRecipe(know, stage.target);
      for (const i of recipe?.inputs ?? []) out.set(i.itemId, Math.max(out.get(i.itemId) ?? 0, i.quantity * (stage.count ?? 1)));
    }
  }
  return out;
}

/**
 * The coins the quests not completed yet will cost: the fees of their make stages (a recipe's
 * `coins` a make: Hides for the Vats' tanning, a coin a hide), and, of those serving the focus, the
 * tools they need and it holds none of (questToolsToBuy: Supper at the Kettle's fishing net). Kept
 * when it buys food (meleeFood.ts foodPurchase). A run of 19:57 spent its last coins on bread, and
 * Hides' tanning stage failed "nothing to make" five times; one of 23:25 spent them on bread and a
 * dagger, and Supper at the Kettle failed "no Small fishing net, nor the coins for one".
 */
export function questFees(know: Knowledge, obs: Pick<Observation, "quests" | "inventory" | "equipment">): number {
  const done = new Set((obs.quests ?? []).filter((q) => q.status === "completed").map((q) => q.id));
  let fees = 0;
  for (const quest of know.registry.quests.quests.values()) {
    if (done.has(quest.id)) continue;
    for (const stage of quest.stages) {
      if (stage.type !== "make" || stage.target === undefined) continue;
      const recipe = makeRecipe(know, stage.target);
      fees += (recipe?.coins ?? 0) * (stage.count ?? 1);
    }
    if (servesMeleeQuest(know, obs, quest.id)) {
      const tools = questToolsToBuy(know, obs, quest.id);
      if (Number.isFinite(tools)) fees += tools;
    }
  }
  return fees;
}

/** Logs it keeps under `focus melee` (banking and selling leave them): a fire at the cows' field to cook the meat on (cooking.ts Cook). */
export const MELEE_LOGS_KEPT = 3;

/**
 * Whether bones are worth burying to a melee trainer: a boost prayer at its Prayer level adds a
 * level to one of its melee skills (fighting.ts boostPrayer: the server floors the boosted level,
 * so the content's 5 % boosts add nothing below level 20 and its 10 % ones nothing below 10, at
 * Prayer 10 and more, some 250 bones away). Until then a bone is a pickup and a burial a kill for
 * nothing the climb uses.
 */
export function bonesWorthBurying(know: Knowledge, self: Pick<Self, "skills">): boolean {
  return MELEE_SKILLS.some((skill) => boostPrayer(self, know, skill) !== undefined);
}

/**
 * Under `focus melee`, what a fight picks up: coins, what it keeps (tools, gear, runes), food raw or
 * cooked, bones while a prayer would add a melee level (bonesWorthBurying), and the inputs its
 * quests still make things from (Hides for the Vats' cowhides); not what is only worth a coin at a
 * store (a cowhide after Hides: 1 coin, a pickup, a slot and a share of a bank trip; the 15:47 run's
 * fighter banked "for room" every ~900 ticks).
 */
export function meleeLoot(know: Knowledge, obs: Pick<Observation, "quests" | "skills">): (itemId: string) => boolean {
  const inputs = questMakeInputs(know, obs);
  const raw = new Set(know.registry.recipes.cooking.map((r) => r.raw));
  const bones = bonesWorthBurying(know, obs);
  return (itemId) => {
    const item = know.registry.item(itemId);
    if (item === undefined) return false;
    return (
      itemId === "coins" || know.keep.has(itemId) || (item.healAmount ?? 0) > 0 || raw.has(itemId) || (bones && (item.prayerXp ?? 0) > 0) || inputs.has(itemId)
    );
  };
}
