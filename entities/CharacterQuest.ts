import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/**
 * `character_quests`: a character's state in each quest it has started (src/game/quests.ts); no
 * row: not started. Written with the character's save (src/persistence/quests.ts).
 */
export const CharacterQuest = defineEntity({
  name: "CharacterQuest",
  tableName: "character_quests",
  properties: {
    id: p.integer().primary().autoincrement(),
    characterId: p.string().length(64),
    questId: p.string().length(64),
    status: p.string().length(16).check("status = 'in_progress' or status = 'completed'"),
    /** The current stage's index (the last one's when completed). */
    stage: p.integer().check("stage >= 0"),
    /** What the current stage has counted. */
    progress: p.integer().default(0).check("progress >= 0"),
    completions: p.integer().default(0).check("completions >= 0"),
  },
  uniques: [{ name: "character_quests_character_quest_unique", properties: ["characterId", "questId"] }],
});
export type ICharacterQuest = InferEntity<typeof CharacterQuest>;
