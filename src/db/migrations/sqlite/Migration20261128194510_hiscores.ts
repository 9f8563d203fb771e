import { Migration } from '@mikro-orm/migrations';

/**
 * The hiscores (entities/hiscoreSql.ts): `xpGainedAt`, when a character's total xp last grew (epoch
 * ms; existing characters start from their last save), and one index per table in its ranking
 * order (overall: total level, total xp, `xpGainedAt`, id; a skill: its xp, `xpGainedAt`, id), so
 * that a page of a table is read from its index. The statements are frozen here as they were
 * written: a later change of the ranking gets a migration of its own.
 */
export class Migration20261128194510_hiscores extends Migration {

  override name = 'Migration20261128194510_hiscores';

  override up(): void | Promise<void> {
    this.addSql(`alter table \`characters\` add column \`xpGainedAt\` double not null default 0;`);
    this.addSql(`update "characters" set "xpGainedAt" = case typeof("updatedAt") when 'text' then round((julianday("updatedAt") - 2440587.5) * 86400000) else "updatedAt" end;`);
    this.addSql(`create index "characters_hiscores_overall_index" on "characters" (("attackLevel" + "strengthLevel" + "defenseLevel" + "constitutionLevel" + "rangedLevel" + "magicLevel" + "prayerLevel" + "woodcuttingLevel" + "miningLevel" + "fishingLevel" + "firemakingLevel" + "cookingLevel" + "smithingLevel" + "craftingLevel" + "fletchingLevel" + "runecraftingLevel" + "agilityLevel") desc, (cast("attackXpTenths" as bigint) + "strengthXpTenths" + "defenseXpTenths" + "constitutionXpTenths" + "rangedXpTenths" + "magicXpTenths" + "prayerXpTenths" + "woodcuttingXpTenths" + "miningXpTenths" + "fishingXpTenths" + "firemakingXpTenths" + "cookingXpTenths" + "smithingXpTenths" + "craftingXpTenths" + "fletchingXpTenths" + "runecraftingXpTenths" + "agilityXpTenths") desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_attack_index" on "characters" ("attackXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_strength_index" on "characters" ("strengthXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_defense_index" on "characters" ("defenseXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_constitution_index" on "characters" ("constitutionXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_ranged_index" on "characters" ("rangedXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_magic_index" on "characters" ("magicXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_prayer_index" on "characters" ("prayerXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_woodcutting_index" on "characters" ("woodcuttingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_mining_index" on "characters" ("miningXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_fishing_index" on "characters" ("fishingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_firemaking_index" on "characters" ("firemakingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_cooking_index" on "characters" ("cookingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_smithing_index" on "characters" ("smithingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_crafting_index" on "characters" ("craftingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_fletching_index" on "characters" ("fletchingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_runecrafting_index" on "characters" ("runecraftingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_agility_index" on "characters" ("agilityXpTenths" desc, "xpGainedAt", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "characters_hiscores_overall_index";`);
    this.addSql(`drop index "characters_hiscores_attack_index";`);
    this.addSql(`drop index "characters_hiscores_strength_index";`);
    this.addSql(`drop index "characters_hiscores_defense_index";`);
    this.addSql(`drop index "characters_hiscores_constitution_index";`);
    this.addSql(`drop index "characters_hiscores_ranged_index";`);
    this.addSql(`drop index "characters_hiscores_magic_index";`);
    this.addSql(`drop index "characters_hiscores_prayer_index";`);
    this.addSql(`drop index "characters_hiscores_woodcutting_index";`);
    this.addSql(`drop index "characters_hiscores_mining_index";`);
    this.addSql(`drop index "characters_hiscores_fishing_index";`);
    this.addSql(`drop index "characters_hiscores_firemaking_index";`);
    this.addSql(`drop index "characters_hiscores_cooking_index";`);
    this.addSql(`drop index "characters_hiscores_smithing_index";`);
    this.addSql(`drop index "characters_hiscores_crafting_index";`);
    this.addSql(`drop index "characters_hiscores_fletching_index";`);
    this.addSql(`drop index "characters_hiscores_runecrafting_index";`);
    this.addSql(`drop index "characters_hiscores_agility_index";`);
    this.addSql(`alter table \`characters\` drop column \`xpGainedAt\`;`);
  }

}
