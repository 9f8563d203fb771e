/**
 * The skill levels the agent's quests ask for and it lacks: what its training goals aim at
 * ("Attack 3 for Tusks in the Hollow"). Used by the quest choice (questChoice.ts) and the melee
 * focus (meleeFocus.ts), which each other uses, so it stands apart.
 */
import type { Knowledge } from "../knowledge.ts";
import type { Observation } from "./Brain.ts";

/**
 * A quest's stages from the one named on (the first when none is named or it is not the quest's):
 * what is left of a quest in progress, as its `quest:list` entry's `stage` says.
 */
export function stagesFrom<S extends { id: string }>(stages: readonly S[], stageId: string | null | undefined): readonly S[] {
  return stages.slice(
    Math.max(
      0,
      stages.findIndex((s) => s.id === stageId),
    ),
  );
}

/** A skill level a quest asks for that the agent lacks. */
export interface QuestSkillNeed {
  skill: string;
  level: number;
  questId: string;
  questName: string;
}

/**
 * The skill levels it lacks for the quests it could start otherwise (not completed, their quests
 * required completed), as the quest engine checks them: what it trains toward, lowest gap first.
 * Nothing until its quest list is heard.
 */
export function questSkillNeeds(obs: Pick<Observation, "quests" | "skills">, know: Knowledge): QuestSkillNeed[] {
  if (obs.quests === undefined) return [];
  const status = new Map(obs.quests.map((q) => [q.id, q.status]));
  const out: QuestSkillNeed[] = [];
  for (const quest of know.registry.quests.quests.values()) {
    if (status.get(quest.id) !== "not_started") continue;
    if (!quest.requirements.quests.every((q) => status.get(q) === "completed")) continue;
    for (const [skill, level] of Object.entries(quest.requirements.skills)) {
      const has = obs.skills[skill.toLowerCase()]?.level ?? 1;
      if (has < level) out.push({ skill: skill.toLowerCase(), level, questId: quest.id, questName: quest.name });
    }
  }
  return out.sort((a, b) => a.level - (obs.skills[a.skill]?.level ?? 1) - (b.level - (obs.skills[b.skill]?.level ?? 1)));
}

/** The skills a goal type trains toward a quest's requirement: a fight trains melee and hitpoints, a gathering goal its skill. */
const TRAINED_BY: Record<string, readonly string[]> = {
  combat: ["attack", "strength", "defense", "defence", "constitution", "hitpoints"],
  woodcutting: ["woodcutting"],
  mining: ["mining"],
  fishing: ["fishing"],
};

/** The quest requirement a goal of this type trains toward, if any (scripted.ts raises its score to QUEST_TRAINING). */
export function questNeedFor(goalType: string, obs: Pick<Observation, "quests" | "skills">, know: Knowledge): QuestSkillNeed | undefined {
  const trains = TRAINED_BY[goalType];
  if (trains === undefined) return undefined;
  return questSkillNeeds(obs, know).find((n) => trains.includes(n.skill));
}

/** "Attack 3 for Tusks in the Hollow (level 2)": a training goal's reason. */
export function needText(need: QuestSkillNeed, obs: Pick<Observation, "skills">): string {
  const name = need.skill.charAt(0).toUpperCase() + need.skill.slice(1);
  return `for quest ${need.questName}: ${name} ${need.level} (level ${obs.skills[need.skill]?.level ?? 1})`;
}

/**
 * The items a quest under way still has to hand over (its `give` stages from the current one on,
 * `count` each): food among them is not eaten while it is not in danger (reflexes.ts). Supper at
 * the Kettle's cooked shrimp were eaten by a fighter hurt by the Settler's rats, and the quest went
 * back to the water for more (a run of 2026-11-29 23:58).
 */
export function questHandOvers(quests: Observation["quests"], know: Knowledge): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of quests ?? []) {
    if (entry.status !== "in_progress") continue;
    for (const stage of stagesFrom(know.registry.quests.quests.get(entry.id)?.stages ?? [], entry.stage)) {
      if (stage.type !== "give" || stage.target === undefined) continue;
      out.set(stage.target, (out.get(stage.target) ?? 0) + (stage.count ?? 1));
    }
  }
  return out;
}
