/**
 * The `quest` goal an agent is offered (AgentService.availableGoals): its targets are the quests
 * the character is doing now, then those it could start now (requirements met, as the quest
 * engine checks them when the start NPC offers the quest: src/game/quests.ts `unmetRequirement`;
 * not completed, unless replayable). No such quest: no goal.
 */
import { toSkill } from "../game/progression.ts";
import type { PlayerData } from "../game/world/Player.ts";
import type { ContentRegistry } from "../manifests/registry.ts";

export function questGoal(content: ContentRegistry, data: PlayerData): { type: "quest"; description: string; targets: string[] } | undefined {
  const log = data.quests ?? {};
  const doing: string[] = [];
  const startable: string[] = [];
  const carried = (itemId: string) => data.inventory.reduce((n, s) => (s !== null && s.itemId === itemId ? n + s.quantity : n), 0);
  for (const quest of content.quests.quests.values()) {
    const s = log[quest.id];
    if (s?.status === "in_progress") {
      doing.push(quest.id);
      continue;
    }
    if (s?.status === "completed" && !quest.replayable) continue;
    const skills = Object.entries(quest.requirements.skills).every(([name, level]) => {
      const skill = toSkill(name);
      return skill !== undefined && data.skills[skill].level >= level;
    });
    const quests = quest.requirements.quests.every((q) => (log[q]?.completions ?? 0) > 0);
    const items = quest.requirements.items.every((i) => carried(i.itemId) >= i.quantity);
    if (skills && quests && items) startable.push(quest.id);
  }
  const targets = [...doing, ...startable];
  return targets.length === 0 ? undefined : { type: "quest", description: "Do a quest", targets };
}
