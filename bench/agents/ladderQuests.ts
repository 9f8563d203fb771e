/**
 * The ladder's quest milestones (ladder.ts): for each quest of the world's content, the tick the
 * agent completed it (its character's quest state, `PlayerData.quests`, read on the server) and the
 * game time it took from being started; then the tick every quest was completed, with the quest
 * points then.
 */
import type { Player } from "../../src/game/world/Player.ts";
import type { ContentRegistry } from "../../src/manifests/registry.ts";

export interface QuestMilestone {
  name: string;
  /** Ticks since the agent entered the world, when it completed the quest. */
  ticks: number;
  minutesAt600ms: number;
  realSeconds: number;
  /** The tick it was first seen in progress (null: started and completed between two reads), and the game time from there. */
  startedTick: number | null;
  tookTicks: number | null;
  tookMinutesAt600ms: number | null;
}

export interface QuestLadder {
  /** Every quest of the content by id; null while not completed. */
  quests: Record<string, QuestMilestone | null>;
  /** When the last of them was completed (null: not all were), with the quest points then. */
  allQuests: { ticks: number; minutesAt600ms: number; realSeconds: number; questPoints: number } | null;
  questPoints: number;
}

/** Ticks per minute at the real 600 ms tick. */
const TICKS_PER_MINUTE = 100;
const round1 = (x: number) => Math.round(x * 10) / 10;

export class QuestWatch {
  readonly ladder: QuestLadder;
  private readonly content: ContentRegistry;
  private readonly started = new Map<string, number>();

  constructor(content: ContentRegistry) {
    this.content = content;
    this.ladder = { quests: Object.fromEntries([...content.quests.quests.keys()].map((id) => [id, null])), allQuests: null, questPoints: 0 };
  }

  /** Every quest completed (true when the content has none). */
  get done(): boolean {
    return Object.values(this.ladder.quests).every((q) => q !== null);
  }

  /** One read of the player at tick `t` (since it entered), `realSeconds` since then; returns the quests completed at this read. */
  observe(p: Player, t: number, realSeconds: number): string[] {
    const log = p.data.quests ?? {};
    const now: string[] = [];
    let points = 0;
    for (const [id, s] of Object.entries(log)) {
      const quest = this.content.quests.quests.get(id);
      if (quest === undefined) continue;
      if (s.completions > 0) points += quest.rewards.questPoints;
      if (s.status === "in_progress" && !this.started.has(id)) this.started.set(id, t);
      if (s.completions === 0 || this.ladder.quests[id] !== null) continue;
      const from = this.started.get(id) ?? null;
      const took = from === null ? null : t - from;
      this.ladder.quests[id] = {
        name: quest.name,
        ticks: t,
        minutesAt600ms: round1(t / TICKS_PER_MINUTE),
        realSeconds,
        startedTick: from,
        tookTicks: took,
        tookMinutesAt600ms: took === null ? null : round1(took / TICKS_PER_MINUTE),
      };
      now.push(id);
    }
    this.ladder.questPoints = points;
    if (this.ladder.allQuests === null && this.done && Object.keys(this.ladder.quests).length > 0) {
      this.ladder.allQuests = { ticks: t, minutesAt600ms: round1(t / TICKS_PER_MINUTE), realSeconds, questPoints: points };
    }
    return now;
  }
}
