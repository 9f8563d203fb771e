import { defineEntity, p, type InferEntity } from "@mikro-orm/core";
import { nameKey } from "../src/game/names.ts";
import { HISCORE_SKILLS, hiscoreIndexName, hiscoreIndexSql } from "./hiscoreSql.ts";

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
      .onCreate((c: { name: string }) => nameKey(c.name)),
    renamedFrom: p.string().length(32).nullable(),
    combatLevel: p.integer().default(3).check('"combatLevel" >= 3 and "combatLevel" <= 126'),
    /** The attack style (src/game/combatStyles.ts). */
    combatStyle: p.string().length(16).default("accurate"),
    /** The spell attacks cast while a staff is wielded (src/game/magic.ts); null: none. Kept across logouts and hops, as the genre keeps it. */
    autocast: p.string().length(64).nullable(),
    /**
     * Makes left of the production consumables begun (src/game/productionRules.ts; thread gives 5):
     * JSON, item id → makes left (`{"thread":3}`); null: none begun.
     */
    consumableUses: p.text().nullable(),
    /** The run toggle (src/game/running.ts): 1 on, 0 off; kept across logouts, as the genre keeps it. */
    runMode: p.integer().default(0),
    /** Auto Retaliate (src/game/retaliate.ts): 1 on (the genre's default), 0 off; kept across logouts. */
    autoRetaliate: p.integer().default(1),
    /** Prayer points left, 0 to the Prayer level (src/game/prayer.ts). */
    prayerPoints: p.integer().default(1),
    /** Xp is stored in tenths of xp (17.5 xp is 175), as the genre keeps it: no award loses its fraction. */
    attackLevel: p.integer().default(1).check('"attackLevel" >= 1 and "attackLevel" <= 99'),
    attackXpTenths: p.integer().default(0).check('"attackXpTenths" >= 0 and "attackXpTenths" <= 2000000000'),
    strengthLevel: p.integer().default(1).check('"strengthLevel" >= 1 and "strengthLevel" <= 99'),
    strengthXpTenths: p.integer().default(0).check('"strengthXpTenths" >= 0 and "strengthXpTenths" <= 2000000000'),
    defenseLevel: p.integer().default(1).check('"defenseLevel" >= 1 and "defenseLevel" <= 99'),
    defenseXpTenths: p.integer().default(0).check('"defenseXpTenths" >= 0 and "defenseXpTenths" <= 2000000000'),
    constitutionLevel: p.integer().default(10).check('"constitutionLevel" >= 1 and "constitutionLevel" <= 99'),
    constitutionXpTenths: p.integer().default(11540).check('"constitutionXpTenths" >= 0 and "constitutionXpTenths" <= 2000000000'),
    rangedLevel: p.integer().default(1).check('"rangedLevel" >= 1 and "rangedLevel" <= 99'),
    rangedXpTenths: p.integer().default(0).check('"rangedXpTenths" >= 0 and "rangedXpTenths" <= 2000000000'),
    magicLevel: p.integer().default(1).check('"magicLevel" >= 1 and "magicLevel" <= 99'),
    magicXpTenths: p.integer().default(0).check('"magicXpTenths" >= 0 and "magicXpTenths" <= 2000000000'),
    prayerLevel: p.integer().default(1).check('"prayerLevel" >= 1 and "prayerLevel" <= 99'),
    prayerXpTenths: p.integer().default(0).check('"prayerXpTenths" >= 0 and "prayerXpTenths" <= 2000000000'),
    woodcuttingLevel: p.integer().default(1).check('"woodcuttingLevel" >= 1 and "woodcuttingLevel" <= 99'),
    woodcuttingXpTenths: p.integer().default(0).check('"woodcuttingXpTenths" >= 0 and "woodcuttingXpTenths" <= 2000000000'),
    miningLevel: p.integer().default(1).check('"miningLevel" >= 1 and "miningLevel" <= 99'),
    miningXpTenths: p.integer().default(0).check('"miningXpTenths" >= 0 and "miningXpTenths" <= 2000000000'),
    fishingLevel: p.integer().default(1).check('"fishingLevel" >= 1 and "fishingLevel" <= 99'),
    fishingXpTenths: p.integer().default(0).check('"fishingXpTenths" >= 0 and "fishingXpTenths" <= 2000000000'),
    firemakingLevel: p.integer().default(1).check('"firemakingLevel" >= 1 and "firemakingLevel" <= 99'),
    firemakingXpTenths: p.integer().default(0).check('"firemakingXpTenths" >= 0 and "firemakingXpTenths" <= 2000000000'),
    cookingLevel: p.integer().default(1).check('"cookingLevel" >= 1 and "cookingLevel" <= 99'),
    cookingXpTenths: p.integer().default(0).check('"cookingXpTenths" >= 0 and "cookingXpTenths" <= 2000000000'),
    smithingLevel: p.integer().default(1).check('"smithingLevel" >= 1 and "smithingLevel" <= 99'),
    smithingXpTenths: p.integer().default(0).check('"smithingXpTenths" >= 0 and "smithingXpTenths" <= 2000000000'),
    craftingLevel: p.integer().default(1).check('"craftingLevel" >= 1 and "craftingLevel" <= 99'),
    craftingXpTenths: p.integer().default(0).check('"craftingXpTenths" >= 0 and "craftingXpTenths" <= 2000000000'),
    fletchingLevel: p.integer().default(1).check('"fletchingLevel" >= 1 and "fletchingLevel" <= 99'),
    fletchingXpTenths: p.integer().default(0).check('"fletchingXpTenths" >= 0 and "fletchingXpTenths" <= 2000000000'),
    runecraftingLevel: p.integer().default(1).check('"runecraftingLevel" >= 1 and "runecraftingLevel" <= 99'),
    runecraftingXpTenths: p.integer().default(0).check('"runecraftingXpTenths" >= 0 and "runecraftingXpTenths" <= 2000000000'),
    agilityLevel: p.integer().default(1).check('"agilityLevel" >= 1 and "agilityLevel" <= 99'),
    agilityXpTenths: p.integer().default(0).check('"agilityXpTenths" >= 0 and "agilityXpTenths" <= 2000000000'),
    health: p.integer().default(100).check("health >= 0"),
    coins: p.integer().default(0).check("coins >= 0 and coins <= 2147483647"),
    positionX: p.double().default(0),
    positionY: p.double().default(10),
    positionZ: p.double().default(0),
    /** Run energy in units, 10,000 = 100 % (src/game/world/runEnergy.ts). */
    runEnergy: p.integer().default(10000).check('"runEnergy" >= 0 and "runEnergy" <= 10000'),
    createdAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    lastLoginAt: p.datetime().nullable(),
    /**
     * When the total xp last grew (epoch milliseconds, as the save that stored the growth saw it;
     * the creation time until then): the hiscores' tie-break, who got there first.
     */
    xpGainedAt: p
      .double()
      .default(0)
      .onCreate(() => Date.now()),
    version: p.integer().version(),
  },
  // The hiscores (entities/hiscoreSql.ts): one index per table, in its order, so a page is an index scan.
  indexes: HISCORE_SKILLS.map((s) => ({ name: hiscoreIndexName(s), expression: hiscoreIndexSql(s) })),
});
export type ICharacter = InferEntity<typeof Character>;
