/**
 * The scripted policy's side of quests (scripted.ts): how much a `quest` goal is worth, and which
 * quest; and which skill levels the quests it cannot start yet ask for (it trains toward them).
 * Its targets are the quests the server says the character is doing or could start
 * (src/agents/questGoals.ts); one in progress goes first, then the first startable one in the
 * content's order, leaving out a quest given up lately (the last CROWD_MEMORY goals), one with a
 * monster to kill stronger than the agent can beat yet (level above its combat level + KILL_MARGIN)
 * and one whose monsters are next while it is hurt.
 * A quest is worth more than training a skill or fighting, even while the melee skills are below
 * MELEE_FOCUS (a quest trains them too, gives xp and quest points, and players of the genre take the
 * first quests first); less than making, selling or banking a full inventory. But a quest that
 * stalled (given up where it stood: `recentGoals[].stalled`) STALL_ATTEMPTS times in the last
 * RECENT_GOALS goals is worth less than training (QUEST_STALLED) until those attempts are
 * forgotten, as a crowded spot is: the agent never sinks a run into one quest it cannot do yet.
 */
import type { Knowledge } from "../knowledge.ts";
import { RECENT_GOALS, type GoalChoice, type GoalOption, type Observation } from "./Brain.ts";
import type { QuestDef } from "./questPlan.ts";
import { meleeQuestValue, questFightsWinnable } from "./meleeFocus.ts";
import { stagesFrom } from "./questNeeds.ts";

// The levels its quests ask for (questNeeds.ts: meleeFocus.ts needs them too, and questChoice needs meleeFocus).
export { needText, questNeedFor, questSkillNeeds, type QuestSkillNeed } from "./questNeeds.ts";

/** A quest's scores: above combat's (at most 85 with melee 1 and food) and training's, below a full inventory's making (93), selling (91) and banking. */
export const QUEST_DOING = 88;
export const QUEST_START = 86;
/** What a quest giving melee xp (meleeFocus.ts) gains under `focus melee`, besides the focus's bonus: it comes before any fight. */
export const MELEE_QUEST_LIFT = 6;
/** A stalled quest's score: below training a skill up to level 29 (60 − level) and fighting (70 − melee and up); above exploring (10). */
export const QUEST_STALLED = 30;
/** Stalled attempts at one quest, in the last RECENT_GOALS goals, after which it scores QUEST_STALLED. */
export const STALL_ATTEMPTS = 2;
/** Training toward a quest's skill requirement: above fighting and gathering, below doing a quest it can do. */
export const QUEST_TRAINING = 84;

/** How many levels above its combat level a quest's monster may be. */
export const KILL_MARGIN = 5;
/** A quest given up in this many last goals is not taken again yet (the scripted policy's CROWD_MEMORY). */
const MEMORY = 10;

/** How many times the quest was given up where it stood, in the last RECENT_GOALS goals. */
export function stalledAttempts(obs: Pick<Observation, "recentGoals">, questId: string): number {
  return obs.recentGoals.slice(0, RECENT_GOALS).filter((g) => g.type === "quest" && g.target === questId && g.outcome === "failed" && g.stalled === true)
    .length;
}

export function questScore(option: GoalOption, obs: Observation, know: Knowledge): (GoalChoice & { score: number }) | undefined {
  const failed = new Set(
    obs.recentGoals
      .slice(0, MEMORY)
      // Not one left as a losing fight (`fled`): it goes on once its health and food allow (the
      // rules below); before, Hides for the Vats' tanning waited 1,300 ticks behind such a flight
      // in a run of 16:47, its 300 melee xp with it.
      .filter((g) => g.type === "quest" && g.outcome === "failed" && g.fled !== true && g.target !== undefined)
      .map((g) => g.target!),
  );
  const entries = new Map((obs.quests ?? []).map((q) => [q.id, q]));
  const beatable = (quest: QuestDef, fromStage: string | null | undefined) =>
    stagesFrom(quest.stages, fromStage).every(
      (s) => s.type !== "kill" || (know.registry.npcs.get(s.target ?? "")?.stats?.level ?? 1) <= obs.combatLevel + KILL_MARGIN,
    );
  // A fight to come at low health waits (the policy fights at 70 % and up).
  const hurt = obs.health < obs.maxHealth * 0.7;
  const candidates = option.targets.flatMap((id) => {
    const quest = know.registry.quests.quests.get(id) as QuestDef | undefined;
    const entry = entries.get(id);
    if (quest === undefined || failed.has(id) || !beatable(quest, entry?.stage)) return [];
    if (hurt && quest.stages.find((s) => s.id === entry?.stage)?.type === "kill") return [];
    // Under `focus melee`, a quest whose fights it cannot win yet with its health and food waits (meleeFocus.ts).
    if (!questFightsWinnable(know, obs, id, entry?.stage)) return [];
    return [{ quest, entry, doing: entry?.status === "in_progress", stalled: stalledAttempts(obs, id) >= STALL_ATTEMPTS }];
  });
  // One that did not stall first, then one in progress. Under `focus melee`, one giving melee xp
  // (or opening a quest that does) before the rest, and of those the most melee xp a tick (meleeFocus.ts).
  const melee = new Map(candidates.map((c) => [c.quest.id, obs.focus === "melee" ? meleeQuestValue(know, obs, c.quest.id) : 0]));
  const serves = (id: string) => Number(melee.get(id)! > 0);
  candidates.sort(
    (a, b) =>
      Number(a.stalled) - Number(b.stalled) ||
      serves(b.quest.id) - serves(a.quest.id) ||
      Number(b.doing) - Number(a.doing) ||
      melee.get(b.quest.id)! - melee.get(a.quest.id)!,
  );
  const pick = candidates[0];
  if (pick === undefined) return undefined;
  const what = pick.doing ? `continue ${pick.quest.name}: ${pick.entry?.stageText ?? ""}`.trim() : `start ${pick.quest.name}`;
  if (pick.stalled)
    return { type: "quest", target: pick.quest.id, score: QUEST_STALLED, reason: `${what} (stalled ${stalledAttempts(obs, pick.quest.id)} times lately)` };
  // Under `focus melee`, a quest giving melee xp passes a fight with food at melee 1 (80 − 1 + 6, + the noise).
  const lift = melee.get(pick.quest.id)! > 0 ? MELEE_QUEST_LIFT : 0;
  return { type: "quest", target: pick.quest.id, score: (pick.doing ? QUEST_DOING : QUEST_START) + lift, reason: what };
}
