import { defineEntity, p, type InferEntity } from "@mikro-orm/core";
import { nameKey } from "../src/game/names.ts";
import { HISCORE_SKILLS, hiscoreIndexName, hiscoreIndexSql } from "../src/db/hiscoreSql.ts";

/**
 * `characters`: the spec's character record (every field and default), a level and an xp column
 * for every skill in {@link ./skills.ts}, and bookkeeping. Column names are the record's field
 * names. `version` guards against lost updates from concurrent writers.
 *
 * `nameKey` is the name as players read it (src/game/names.ts): unique, so no two characters' names
 * read the same, and every lookup by name (friends, ignore lists, private messages, moderation,
 * `/api/player/by-name`) goes through it. `renamedFrom`: the name the key migration took from the
 * character, until its player has been told at a login.
 */
export const Character = defineEntity({
  name: "Character",
  tableName: "characters",
  properties: {
    id: p.string().primary().length(64),
    accountId: p.string().length(64).index("characters_account_id_index"),
    name: p.string().length(32).unique("characters_name_unique"),
    nameKey: p
      .string()
      .length(32)
      .unique("characters_name_key_unique")
      .onCreate((c) => nameKey(c.name)),
    renamedFrom: p.string().length(32).nullable(),
    combatLevel: p.integer().default(3).check("\"combatLevel\" >= 3 and \"combatLevel\" <= 126"),
    /** The attack style (src/game/combatStyles.ts). */
    combatStyle: p.string().length(16).default("accurate"),
    attackLevel: p.integer().default(1).check("\"attackLevel\" >= 1 and \"attackLevel\" <= 99"),
    attackXp: p.integer().default(0).check("\"attackXp\" >= 0 and \"attackXp\" <= 200000000"),
    strengthLevel: p.integer().default(1).check("\"strengthLevel\" >= 1 and \"strengthLevel\" <= 99"),
    strengthXp: p.integer().default(0).check("\"strengthXp\" >= 0 and \"strengthXp\" <= 200000000"),
    defenseLevel: p.integer().default(1).check("\"defenseLevel\" >= 1 and \"defenseLevel\" <= 99"),
    defenseXp: p.integer().default(0).check("\"defenseXp\" >= 0 and \"defenseXp\" <= 200000000"),
    constitutionLevel: p.integer().default(10).check("\"constitutionLevel\" >= 1 and \"constitutionLevel\" <= 99"),
    constitutionXp: p.integer().default(1154).check("\"constitutionXp\" >= 0 and \"constitutionXp\" <= 200000000"),
    rangedLevel: p.integer().default(1).check("\"rangedLevel\" >= 1 and \"rangedLevel\" <= 99"),
    rangedXp: p.integer().default(0).check("\"rangedXp\" >= 0 and \"rangedXp\" <= 200000000"),
    magicLevel: p.integer().default(1).check("\"magicLevel\" >= 1 and \"magicLevel\" <= 99"),
    magicXp: p.integer().default(0).check("\"magicXp\" >= 0 and \"magicXp\" <= 200000000"),
    prayerLevel: p.integer().default(1).check("\"prayerLevel\" >= 1 and \"prayerLevel\" <= 99"),
    prayerXp: p.integer().default(0).check("\"prayerXp\" >= 0 and \"prayerXp\" <= 200000000"),
    woodcuttingLevel: p.integer().default(1).check("\"woodcuttingLevel\" >= 1 and \"woodcuttingLevel\" <= 99"),
    woodcuttingXp: p.integer().default(0).check("\"woodcuttingXp\" >= 0 and \"woodcuttingXp\" <= 200000000"),
    miningLevel: p.integer().default(1).check("\"miningLevel\" >= 1 and \"miningLevel\" <= 99"),
    miningXp: p.integer().default(0).check("\"miningXp\" >= 0 and \"miningXp\" <= 200000000"),
    fishingLevel: p.integer().default(1).check("\"fishingLevel\" >= 1 and \"fishingLevel\" <= 99"),
    fishingXp: p.integer().default(0).check("\"fishingXp\" >= 0 and \"fishingXp\" <= 200000000"),
    firemakingLevel: p.integer().default(1).check("\"firemakingLevel\" >= 1 and \"firemakingLevel\" <= 99"),
    firemakingXp: p.integer().default(0).check("\"firemakingXp\" >= 0 and \"firemakingXp\" <= 200000000"),
    cookingLevel: p.integer().default(1).check("\"cookingLevel\" >= 1 and \"cookingLevel\" <= 99"),
    cookingXp: p.integer().default(0).check("\"cookingXp\" >= 0 and \"cookingXp\" <= 200000000"),
    smithingLevel: p.integer().default(1).check("\"smithingLevel\" >= 1 and \"smithingLevel\" <= 99"),
    smithingXp: p.integer().default(0).check("\"smithingXp\" >= 0 and \"smithingXp\" <= 200000000"),
    craftingLevel: p.integer().default(1).check("\"craftingLevel\" >= 1 and \"craftingLevel\" <= 99"),
    craftingXp: p.integer().default(0).check("\"craftingXp\" >= 0 and \"craftingXp\" <= 200000000"),
    fletchingLevel: p.integer().default(1).check("\"fletchingLevel\" >= 1 and \"fletchingLevel\" <= 99"),
    fletchingXp: p.integer().default(0).check("\"fletchingXp\" >= 0 and \"fletchingXp\" <= 200000000"),
    runecraftingLevel: p.integer().default(1).check("\"runecraftingLevel\" >= 1 and \"runecraftingLevel\" <= 99"),
    runecraftingXp: p.integer().default(0).check("\"runecraftingXp\" >= 0 and \"runecraftingXp\" <= 200000000"),
    agilityLevel: p.integer().default(1).check("\"agilityLevel\" >= 1 and \"agilityLevel\" <= 99"),
    agilityXp: p.integer().default(0).check("\"agilityXp\" >= 0 and \"agilityXp\" <= 200000000"),
    health: p.integer().default(100).check("health >= 0"),
    coins: p.integer().default(0).check("coins >= 0 and coins <= 2147483647"),
    positionX: p.double().default(0),
    positionY: p.double().default(10),
    positionZ: p.double().default(0),
    createdAt: p.datetime().defaultRaw("current_timestamp").onCreate(() => new Date()),
    updatedAt: p.datetime().defaultRaw("current_timestamp").onCreate(() => new Date()).onUpdate(() => new Date()),
    lastLoginAt: p.datetime().nullable(),
    /**
     * When the total xp last grew (epoch milliseconds, as the save that stored the growth saw it;
     * the creation time until then): the hiscores' tie-break, who got there first.
     */
    xpGainedAt: p.double().default(0).onCreate(() => Date.now()),
    version: p.integer().version(),
  },
  // The hiscores (src/db/hiscoreSql.ts): one index per table, in its order, so a page is an index scan.
  indexes: HISCORE_SKILLS.map((s) => ({ name: hiscoreIndexName(s), expression: hiscoreIndexSql(s) })),
});
export type ICharacter = InferEntity<typeof Character>;
