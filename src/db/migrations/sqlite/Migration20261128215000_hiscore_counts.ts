import { Migration } from '@mikro-orm/migrations';

/**
 * The hiscores' bucket counts (entities/hiscoreSql.ts, entities/HiscoreCount.ts): `hiscoreCounts`
 * holds how many characters each bucket (a level; overall the total level) of each table holds,
 * filled from the existing characters and kept by triggers on `characters` (per row; an update only when a level changed), so that a rank
 * adds the counts of the buckets ahead to a count within its own bucket, and a deep page starts at
 * its bucket, instead of walking every row ahead. A skill's index now leads with its level (the
 * order is the same: the level follows the xp), so that a bucket is a range of it. The statements
 * are frozen here as they were written.
 */
export class Migration20261128215000_hiscore_counts extends Migration {

  override name = 'Migration20261128215000_hiscore_counts';

  override up(): void | Promise<void> {
    this.addSql(`create table "hiscoreCounts" ("board" text not null, "bucket" integer not null, "n" integer not null default 0, primary key ("board", "bucket"));`);
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
    this.addSql(`create index "characters_hiscores_attack_index" on "characters" ("attackLevel" desc, "attackXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_strength_index" on "characters" ("strengthLevel" desc, "strengthXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_defense_index" on "characters" ("defenseLevel" desc, "defenseXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_constitution_index" on "characters" ("constitutionLevel" desc, "constitutionXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_ranged_index" on "characters" ("rangedLevel" desc, "rangedXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_magic_index" on "characters" ("magicLevel" desc, "magicXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_prayer_index" on "characters" ("prayerLevel" desc, "prayerXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_woodcutting_index" on "characters" ("woodcuttingLevel" desc, "woodcuttingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_mining_index" on "characters" ("miningLevel" desc, "miningXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_fishing_index" on "characters" ("fishingLevel" desc, "fishingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_firemaking_index" on "characters" ("firemakingLevel" desc, "firemakingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_cooking_index" on "characters" ("cookingLevel" desc, "cookingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_smithing_index" on "characters" ("smithingLevel" desc, "smithingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_crafting_index" on "characters" ("craftingLevel" desc, "craftingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_fletching_index" on "characters" ("fletchingLevel" desc, "fletchingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_runecrafting_index" on "characters" ("runecraftingLevel" desc, "runecraftingXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`create index "characters_hiscores_agility_index" on "characters" ("agilityLevel" desc, "agilityXpTenths" desc, "xpGainedAt", "id");`);
    this.addSql(`insert into "hiscoreCounts" ("board", "bucket", "n") select 'overall', ("attackLevel" + "strengthLevel" + "defenseLevel" + "constitutionLevel" + "rangedLevel" + "magicLevel" + "prayerLevel" + "woodcuttingLevel" + "miningLevel" + "fishingLevel" + "firemakingLevel" + "cookingLevel" + "smithingLevel" + "craftingLevel" + "fletchingLevel" + "runecraftingLevel" + "agilityLevel"), count(*) from "characters" group by 2 union all select 'attack', "attackLevel", count(*) from "characters" group by 2 union all select 'strength', "strengthLevel", count(*) from "characters" group by 2 union all select 'defense', "defenseLevel", count(*) from "characters" group by 2 union all select 'constitution', "constitutionLevel", count(*) from "characters" group by 2 union all select 'ranged', "rangedLevel", count(*) from "characters" group by 2 union all select 'magic', "magicLevel", count(*) from "characters" group by 2 union all select 'prayer', "prayerLevel", count(*) from "characters" group by 2 union all select 'woodcutting', "woodcuttingLevel", count(*) from "characters" group by 2 union all select 'mining', "miningLevel", count(*) from "characters" group by 2 union all select 'fishing', "fishingLevel", count(*) from "characters" group by 2 union all select 'firemaking', "firemakingLevel", count(*) from "characters" group by 2 union all select 'cooking', "cookingLevel", count(*) from "characters" group by 2 union all select 'smithing', "smithingLevel", count(*) from "characters" group by 2 union all select 'crafting', "craftingLevel", count(*) from "characters" group by 2 union all select 'fletching', "fletchingLevel", count(*) from "characters" group by 2 union all select 'runecrafting', "runecraftingLevel", count(*) from "characters" group by 2 union all select 'agility', "agilityLevel", count(*) from "characters" group by 2;`);
    this.addSql(`create trigger "hiscore_counts_insert" after insert on "characters" begin insert into "hiscoreCounts" ("board", "bucket", "n") values ('overall', (new."attackLevel" + new."strengthLevel" + new."defenseLevel" + new."constitutionLevel" + new."rangedLevel" + new."magicLevel" + new."prayerLevel" + new."woodcuttingLevel" + new."miningLevel" + new."fishingLevel" + new."firemakingLevel" + new."cookingLevel" + new."smithingLevel" + new."craftingLevel" + new."fletchingLevel" + new."runecraftingLevel" + new."agilityLevel"), 1), ('attack', new."attackLevel", 1), ('strength', new."strengthLevel", 1), ('defense', new."defenseLevel", 1), ('constitution', new."constitutionLevel", 1), ('ranged', new."rangedLevel", 1), ('magic', new."magicLevel", 1), ('prayer', new."prayerLevel", 1), ('woodcutting', new."woodcuttingLevel", 1), ('mining', new."miningLevel", 1), ('fishing', new."fishingLevel", 1), ('firemaking', new."firemakingLevel", 1), ('cooking', new."cookingLevel", 1), ('smithing', new."smithingLevel", 1), ('crafting', new."craftingLevel", 1), ('fletching', new."fletchingLevel", 1), ('runecrafting', new."runecraftingLevel", 1), ('agility', new."agilityLevel", 1) on conflict ("board", "bucket") do update set "n" = "n" + excluded."n"; end;`);
    this.addSql(`create trigger "hiscore_counts_delete" after delete on "characters" begin insert into "hiscoreCounts" ("board", "bucket", "n") values ('overall', (old."attackLevel" + old."strengthLevel" + old."defenseLevel" + old."constitutionLevel" + old."rangedLevel" + old."magicLevel" + old."prayerLevel" + old."woodcuttingLevel" + old."miningLevel" + old."fishingLevel" + old."firemakingLevel" + old."cookingLevel" + old."smithingLevel" + old."craftingLevel" + old."fletchingLevel" + old."runecraftingLevel" + old."agilityLevel"), -1), ('attack', old."attackLevel", -1), ('strength', old."strengthLevel", -1), ('defense', old."defenseLevel", -1), ('constitution', old."constitutionLevel", -1), ('ranged', old."rangedLevel", -1), ('magic', old."magicLevel", -1), ('prayer', old."prayerLevel", -1), ('woodcutting', old."woodcuttingLevel", -1), ('mining', old."miningLevel", -1), ('fishing', old."fishingLevel", -1), ('firemaking', old."firemakingLevel", -1), ('cooking', old."cookingLevel", -1), ('smithing', old."smithingLevel", -1), ('crafting', old."craftingLevel", -1), ('fletching', old."fletchingLevel", -1), ('runecrafting', old."runecraftingLevel", -1), ('agility', old."agilityLevel", -1) on conflict ("board", "bucket") do update set "n" = "n" + excluded."n"; end;`);
    this.addSql(`create trigger "hiscore_counts_update" after update on "characters" when old."attackLevel" is not new."attackLevel" or old."strengthLevel" is not new."strengthLevel" or old."defenseLevel" is not new."defenseLevel" or old."constitutionLevel" is not new."constitutionLevel" or old."rangedLevel" is not new."rangedLevel" or old."magicLevel" is not new."magicLevel" or old."prayerLevel" is not new."prayerLevel" or old."woodcuttingLevel" is not new."woodcuttingLevel" or old."miningLevel" is not new."miningLevel" or old."fishingLevel" is not new."fishingLevel" or old."firemakingLevel" is not new."firemakingLevel" or old."cookingLevel" is not new."cookingLevel" or old."smithingLevel" is not new."smithingLevel" or old."craftingLevel" is not new."craftingLevel" or old."fletchingLevel" is not new."fletchingLevel" or old."runecraftingLevel" is not new."runecraftingLevel" or old."agilityLevel" is not new."agilityLevel" begin insert into "hiscoreCounts" ("board", "bucket", "n") values ('overall', (old."attackLevel" + old."strengthLevel" + old."defenseLevel" + old."constitutionLevel" + old."rangedLevel" + old."magicLevel" + old."prayerLevel" + old."woodcuttingLevel" + old."miningLevel" + old."fishingLevel" + old."firemakingLevel" + old."cookingLevel" + old."smithingLevel" + old."craftingLevel" + old."fletchingLevel" + old."runecraftingLevel" + old."agilityLevel"), -1), ('attack', old."attackLevel", -1), ('strength', old."strengthLevel", -1), ('defense', old."defenseLevel", -1), ('constitution', old."constitutionLevel", -1), ('ranged', old."rangedLevel", -1), ('magic', old."magicLevel", -1), ('prayer', old."prayerLevel", -1), ('woodcutting', old."woodcuttingLevel", -1), ('mining', old."miningLevel", -1), ('fishing', old."fishingLevel", -1), ('firemaking', old."firemakingLevel", -1), ('cooking', old."cookingLevel", -1), ('smithing', old."smithingLevel", -1), ('crafting', old."craftingLevel", -1), ('fletching', old."fletchingLevel", -1), ('runecrafting', old."runecraftingLevel", -1), ('agility', old."agilityLevel", -1), ('overall', (new."attackLevel" + new."strengthLevel" + new."defenseLevel" + new."constitutionLevel" + new."rangedLevel" + new."magicLevel" + new."prayerLevel" + new."woodcuttingLevel" + new."miningLevel" + new."fishingLevel" + new."firemakingLevel" + new."cookingLevel" + new."smithingLevel" + new."craftingLevel" + new."fletchingLevel" + new."runecraftingLevel" + new."agilityLevel"), 1), ('attack', new."attackLevel", 1), ('strength', new."strengthLevel", 1), ('defense', new."defenseLevel", 1), ('constitution', new."constitutionLevel", 1), ('ranged', new."rangedLevel", 1), ('magic', new."magicLevel", 1), ('prayer', new."prayerLevel", 1), ('woodcutting', new."woodcuttingLevel", 1), ('mining', new."miningLevel", 1), ('fishing', new."fishingLevel", 1), ('firemaking', new."firemakingLevel", 1), ('cooking', new."cookingLevel", 1), ('smithing', new."smithingLevel", 1), ('crafting', new."craftingLevel", 1), ('fletching', new."fletchingLevel", 1), ('runecrafting', new."runecraftingLevel", 1), ('agility', new."agilityLevel", 1) on conflict ("board", "bucket") do update set "n" = "n" + excluded."n"; end;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "hiscore_counts_insert";`);
    this.addSql(`drop trigger "hiscore_counts_delete";`);
    this.addSql(`drop trigger "hiscore_counts_update";`);
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
    this.addSql(`drop table if exists "hiscoreCounts";`);
  }

}
