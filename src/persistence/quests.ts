/**
 * A character's quest states (`character_quests`; rules: src/game/quests.ts), read with the
 * character at login and written in its save's transaction (players.ts `savePlayers`), so a
 * quest's progress is stored exactly with the inventory its steps changed.
 */
import type { SqlEntityManager } from "@mikro-orm/sqlite";
import { CharacterQuest } from "../../entities/index.ts";
import { selectRows, type Statements } from "../db/rawSql.ts";
import type { PlayerData, QuestProgress } from "../game/world/Player.ts";

/** The character's quests, by id (raw: a login's reads, src/db/rawSql.ts). */
export async function loadQuests(em: Statements, characterId: string): Promise<Record<string, QuestProgress>> {
  const rows = await selectRows<{ questId: string; status: string; stage: number; progress: number; completions: number }>(
    em,
    `select "questId", "status", "stage", "progress", "completions" from "character_quests" where "characterId" = ?`,
    [characterId],
  );
  const out: Record<string, QuestProgress> = {};
  for (const r of rows) {
    out[r.questId] = {
      status: r.status === "completed" ? "completed" : "in_progress",
      stage: Number(r.stage),
      progress: Number(r.progress),
      completions: Number(r.completions),
    };
  }
  return out;
}

/**
 * Writes the quest states of the saved characters (only those that have any): each row inserted
 * or brought up to date. A quest's state never goes back to "not started", so no row is deleted.
 */
export async function writeQuests(em: SqlEntityManager, players: readonly PlayerData[]): Promise<void> {
  const rows = players.flatMap((p) =>
    Object.entries(p.quests ?? {}).map(([questId, s]) => ({
      characterId: p.characterId,
      questId,
      status: s.status,
      stage: s.stage,
      progress: s.progress,
      completions: s.completions,
    })),
  );
  if (rows.length === 0) return;
  await em.upsertMany(CharacterQuest, rows, {
    onConflictFields: ["characterId", "questId"],
    onConflictAction: "merge",
    onConflictMergeFields: ["status", "stage", "progress", "completions"],
  });
}
