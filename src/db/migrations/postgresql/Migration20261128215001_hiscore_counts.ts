import { Migration } from '@mikro-orm/migrations';

/**
 * The hiscores' bucket counts (entities/hiscoreSql.ts, entities/HiscoreCount.ts): `hiscoreCounts`
 * holds how many characters each bucket (a level; overall the total level) of each table holds,
 * filled from the existing characters and kept by triggers on `characters` (per statement, from its transition tables, adding to the counts in the order of their keys so that two concurrent saves lock them in one order; an update counts only the rows whose levels changed), so that a rank
 * adds the counts of the buckets ahead to a count within its own bucket, and a deep page starts at
 * its bucket, instead of walking every row ahead. A skill's index now leads with its level (the
 * order is the same: the level follows the xp), so that a bucket is a range of it. The statements
 * are frozen here as they were written.
 */
export class Migration20261128215001_hiscore_counts extends Migration {

  override name = 'Migration20261128215001_hiscore_counts';

  override up(): void | Promise<void> {
    this.addSql(`create table "hiscoreCounts" ("board" varchar(16) not null, "bucket" int not null, "n" int not null default 0, primary key ("board", "bucket"));`);
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
    this.addSql(`create function "hiscore_counts_insert"() returns trigger language plpgsql as $$ begin insert into "hiscoreCounts" ("board", "bucket", "n") select "b"."board", "b"."bucket", count(*) from "added" cross join lateral (values ('overall', ("attackLevel" + "strengthLevel" + "defenseLevel" + "constitutionLevel" + "rangedLevel" + "magicLevel" + "prayerLevel" + "woodcuttingLevel" + "miningLevel" + "fishingLevel" + "firemakingLevel" + "cookingLevel" + "smithingLevel" + "craftingLevel" + "fletchingLevel" + "runecraftingLevel" + "agilityLevel")), ('attack', "attackLevel"), ('strength', "strengthLevel"), ('defense', "defenseLevel"), ('constitution', "constitutionLevel"), ('ranged', "rangedLevel"), ('magic', "magicLevel"), ('prayer', "prayerLevel"), ('woodcutting', "woodcuttingLevel"), ('mining', "miningLevel"), ('fishing', "fishingLevel"), ('firemaking', "firemakingLevel"), ('cooking', "cookingLevel"), ('smithing', "smithingLevel"), ('crafting', "craftingLevel"), ('fletching', "fletchingLevel"), ('runecrafting', "runecraftingLevel"), ('agility', "agilityLevel")) as "b" ("board", "bucket") group by 1, 2 order by 1, 2 on conflict ("board", "bucket") do update set "n" = "hiscoreCounts"."n" + excluded."n"; return null; end $$;`);
    this.addSql(`create trigger "hiscore_counts_insert" after insert on "characters" referencing new table as "added" for each statement execute function "hiscore_counts_insert"();`);
    this.addSql(`create function "hiscore_counts_delete"() returns trigger language plpgsql as $$ begin insert into "hiscoreCounts" ("board", "bucket", "n") select "b"."board", "b"."bucket", -count(*) from "removed" cross join lateral (values ('overall', ("attackLevel" + "strengthLevel" + "defenseLevel" + "constitutionLevel" + "rangedLevel" + "magicLevel" + "prayerLevel" + "woodcuttingLevel" + "miningLevel" + "fishingLevel" + "firemakingLevel" + "cookingLevel" + "smithingLevel" + "craftingLevel" + "fletchingLevel" + "runecraftingLevel" + "agilityLevel")), ('attack', "attackLevel"), ('strength', "strengthLevel"), ('defense', "defenseLevel"), ('constitution', "constitutionLevel"), ('ranged', "rangedLevel"), ('magic', "magicLevel"), ('prayer', "prayerLevel"), ('woodcutting', "woodcuttingLevel"), ('mining', "miningLevel"), ('fishing', "fishingLevel"), ('firemaking', "firemakingLevel"), ('cooking', "cookingLevel"), ('smithing', "smithingLevel"), ('crafting', "craftingLevel"), ('fletching', "fletchingLevel"), ('runecrafting', "runecraftingLevel"), ('agility', "agilityLevel")) as "b" ("board", "bucket") group by 1, 2 order by 1, 2 on conflict ("board", "bucket") do update set "n" = "hiscoreCounts"."n" + excluded."n"; return null; end $$;`);
    this.addSql(`create trigger "hiscore_counts_delete" after delete on "characters" referencing old table as "removed" for each statement execute function "hiscore_counts_delete"();`);
    this.addSql(`create function "hiscore_counts_update"() returns trigger language plpgsql as $$ begin insert into "hiscoreCounts" ("board", "bucket", "n") select "b"."board", "b"."bucket", sum("c"."d") from (select 1 as "d", "a".* from "added" "a" join "removed" "r" on "r"."id" = "a"."id" where ("a"."attackLevel", "a"."strengthLevel", "a"."defenseLevel", "a"."constitutionLevel", "a"."rangedLevel", "a"."magicLevel", "a"."prayerLevel", "a"."woodcuttingLevel", "a"."miningLevel", "a"."fishingLevel", "a"."firemakingLevel", "a"."cookingLevel", "a"."smithingLevel", "a"."craftingLevel", "a"."fletchingLevel", "a"."runecraftingLevel", "a"."agilityLevel") is distinct from ("r"."attackLevel", "r"."strengthLevel", "r"."defenseLevel", "r"."constitutionLevel", "r"."rangedLevel", "r"."magicLevel", "r"."prayerLevel", "r"."woodcuttingLevel", "r"."miningLevel", "r"."fishingLevel", "r"."firemakingLevel", "r"."cookingLevel", "r"."smithingLevel", "r"."craftingLevel", "r"."fletchingLevel", "r"."runecraftingLevel", "r"."agilityLevel") union all select -1 as "d", "r".* from "added" "a" join "removed" "r" on "r"."id" = "a"."id" where ("a"."attackLevel", "a"."strengthLevel", "a"."defenseLevel", "a"."constitutionLevel", "a"."rangedLevel", "a"."magicLevel", "a"."prayerLevel", "a"."woodcuttingLevel", "a"."miningLevel", "a"."fishingLevel", "a"."firemakingLevel", "a"."cookingLevel", "a"."smithingLevel", "a"."craftingLevel", "a"."fletchingLevel", "a"."runecraftingLevel", "a"."agilityLevel") is distinct from ("r"."attackLevel", "r"."strengthLevel", "r"."defenseLevel", "r"."constitutionLevel", "r"."rangedLevel", "r"."magicLevel", "r"."prayerLevel", "r"."woodcuttingLevel", "r"."miningLevel", "r"."fishingLevel", "r"."firemakingLevel", "r"."cookingLevel", "r"."smithingLevel", "r"."craftingLevel", "r"."fletchingLevel", "r"."runecraftingLevel", "r"."agilityLevel")) as "c" cross join lateral (values ('overall', ("attackLevel" + "strengthLevel" + "defenseLevel" + "constitutionLevel" + "rangedLevel" + "magicLevel" + "prayerLevel" + "woodcuttingLevel" + "miningLevel" + "fishingLevel" + "firemakingLevel" + "cookingLevel" + "smithingLevel" + "craftingLevel" + "fletchingLevel" + "runecraftingLevel" + "agilityLevel")), ('attack', "attackLevel"), ('strength', "strengthLevel"), ('defense', "defenseLevel"), ('constitution', "constitutionLevel"), ('ranged', "rangedLevel"), ('magic', "magicLevel"), ('prayer', "prayerLevel"), ('woodcutting', "woodcuttingLevel"), ('mining', "miningLevel"), ('fishing', "fishingLevel"), ('firemaking', "firemakingLevel"), ('cooking', "cookingLevel"), ('smithing', "smithingLevel"), ('crafting', "craftingLevel"), ('fletching', "fletchingLevel"), ('runecrafting', "runecraftingLevel"), ('agility', "agilityLevel")) as "b" ("board", "bucket") group by 1, 2 having sum("c"."d") <> 0 order by 1, 2 on conflict ("board", "bucket") do update set "n" = "hiscoreCounts"."n" + excluded."n"; return null; end $$;`);
    this.addSql(`create trigger "hiscore_counts_update" after update on "characters" referencing old table as "removed" new table as "added" for each statement execute function "hiscore_counts_update"();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger "hiscore_counts_insert" on "characters";`);
    this.addSql(`drop function "hiscore_counts_insert"();`);
    this.addSql(`drop trigger "hiscore_counts_delete" on "characters";`);
    this.addSql(`drop function "hiscore_counts_delete"();`);
    this.addSql(`drop trigger "hiscore_counts_update" on "characters";`);
    this.addSql(`drop function "hiscore_counts_update"();`);
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
    this.addSql(`drop table if exists "hiscoreCounts" cascade;`);
  }

}
