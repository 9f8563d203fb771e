import { Migration } from '@mikro-orm/migrations';

export class Migration20261121195548_init extends Migration {

  override name = 'Migration20261121195548_init';

  override up(): void | Promise<void> {
    this.addSql(`create table "agent_mappings" ("agentId" varchar(64) not null, "accountId" varchar(64) not null, "characterId" varchar(64) not null, "name" varchar(64) null, "goal" jsonb null, "goalsPaused" boolean not null default false, "createdAt" timestamptz not null default current_timestamp, "updatedAt" timestamptz not null default current_timestamp, primary key ("agentId"));`);
    this.addSql(`create index "agent_mappings_account_index" on "agent_mappings" ("accountId");`);
    this.addSql(`create index "agent_mappings_character_index" on "agent_mappings" ("characterId");`);

    this.addSql(`create table "bank" ("id" serial primary key, "characterId" varchar(64) not null, "itemId" varchar(64) not null, "slot" int not null, "quantity" int not null);`);
    this.addSql(`alter table "bank" add constraint "bank_character_item_unique" unique ("characterId", "itemId");`);

    this.addSql(`create table "characters" ("id" varchar(64) not null, "accountId" varchar(64) not null, "name" varchar(32) not null, "combatLevel" int not null default 3, "attackLevel" int not null default 1, "attackXp" int not null default 0, "strengthLevel" int not null default 1, "strengthXp" int not null default 0, "defenseLevel" int not null default 1, "defenseXp" int not null default 0, "constitutionLevel" int not null default 10, "constitutionXp" int not null default 1154, "rangedLevel" int not null default 1, "rangedXp" int not null default 0, "magicLevel" int not null default 1, "magicXp" int not null default 0, "prayerLevel" int not null default 1, "prayerXp" int not null default 0, "woodcuttingLevel" int not null default 1, "woodcuttingXp" int not null default 0, "miningLevel" int not null default 1, "miningXp" int not null default 0, "fishingLevel" int not null default 1, "fishingXp" int not null default 0, "firemakingLevel" int not null default 1, "firemakingXp" int not null default 0, "cookingLevel" int not null default 1, "cookingXp" int not null default 0, "smithingLevel" int not null default 1, "smithingXp" int not null default 0, "craftingLevel" int not null default 1, "craftingXp" int not null default 0, "fletchingLevel" int not null default 1, "fletchingXp" int not null default 0, "runecraftingLevel" int not null default 1, "runecraftingXp" int not null default 0, "agilityLevel" int not null default 1, "agilityXp" int not null default 0, "health" int not null default 100, "coins" int not null default 0, "positionX" double precision not null default 0, "positionY" double precision not null default 10, "positionZ" double precision not null default 0, "createdAt" timestamptz not null default current_timestamp, "updatedAt" timestamptz not null default current_timestamp, "lastLoginAt" timestamptz null, "version" int not null default 1, primary key ("id"));`);
    this.addSql(`create index "characters_account_id_index" on "characters" ("accountId");`);
    this.addSql(`alter table "characters" add constraint "characters_name_unique" unique ("name");`);

    this.addSql(`create table "equipment" ("id" serial primary key, "characterId" varchar(64) not null, "slotType" varchar(16) not null, "itemId" varchar(64) not null, "quantity" int not null default 1);`);
    this.addSql(`alter table "equipment" add constraint "equipment_character_slot_unique" unique ("characterId", "slotType");`);

    this.addSql(`create table "friend_requests" ("id" serial primary key, "fromAccountId" varchar(64) not null, "toAccountId" varchar(64) not null, "createdAt" timestamptz not null default current_timestamp);`);
    this.addSql(`create index "friend_requests_to_index" on "friend_requests" ("toAccountId");`);
    this.addSql(`alter table "friend_requests" add constraint "friend_requests_pair_unique" unique ("fromAccountId", "toAccountId");`);

    this.addSql(`create table "friendships" ("id" serial primary key, "accountId" varchar(64) not null, "friendAccountId" varchar(64) not null, "createdAt" timestamptz not null default current_timestamp);`);
    this.addSql(`alter table "friendships" add constraint "friendships_pair_unique" unique ("accountId", "friendAccountId");`);

    this.addSql(`create table "ignore_lists" ("id" serial primary key, "accountId" varchar(64) not null, "ignoredAccountId" varchar(64) not null, "createdAt" timestamptz not null default current_timestamp);`);
    this.addSql(`alter table "ignore_lists" add constraint "ignore_lists_pair_unique" unique ("accountId", "ignoredAccountId");`);

    this.addSql(`create table "inventory" ("id" serial primary key, "characterId" varchar(64) not null, "slot" int not null, "itemId" varchar(64) not null, "quantity" int not null);`);
    this.addSql(`alter table "inventory" add constraint "inventory_character_slot_unique" unique ("characterId", "slot");`);

    this.addSql(`create table "items" ("id" varchar(64) not null, "name" varchar(128) not null, "type" varchar(32) not null, "value" int not null default 0, "stackable" boolean not null default false, "tradeable" boolean not null default true, "data" jsonb not null, "updatedAt" timestamptz not null default current_timestamp, primary key ("id"));`);

    this.addSql(`create table "npcKills" ("id" serial primary key, "characterId" varchar(64) not null, "npcId" varchar(64) not null, "killCount" int not null default 0, "lastKillAt" timestamptz null);`);
    this.addSql(`alter table "npcKills" add constraint "npc_kills_character_npc_unique" unique ("characterId", "npcId");`);

    this.addSql(`create table "playerDeaths" ("id" varchar(64) not null, "characterId" varchar(64) not null, "positionX" double precision not null, "positionZ" double precision not null, "status" varchar(16) not null default 'pending', "items" jsonb not null, "killedBy" varchar(64) null, "diedAt" timestamptz not null default current_timestamp, "resolvedAt" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "player_deaths_character_index" on "playerDeaths" ("characterId");`);

    this.addSql(`create table "playerSessions" ("id" varchar(64) not null, "characterId" varchar(64) not null, "accountId" varchar(64) not null, "transport" varchar(16) not null, "remoteAddress" varchar(64) null, "loginAt" timestamptz not null default current_timestamp, "logoutAt" timestamptz null, "logoutReason" varchar(32) null, primary key ("id"));`);
    this.addSql(`create index "player_sessions_character_index" on "playerSessions" ("characterId");`);

    this.addSql(`create table "trade_audit" ("tradeId" varchar(64) not null, "playerAId" varchar(64) not null, "playerBId" varchar(64) not null, "itemsAToB" jsonb not null, "itemsBToA" jsonb not null, "valueAToB" bigint not null default '0', "valueBToA" bigint not null default '0', "completedAt" timestamptz not null default current_timestamp, primary key ("tradeId"));`);
    this.addSql(`create index "trade_audit_player_a_index" on "trade_audit" ("playerAId");`);
    this.addSql(`create index "trade_audit_player_b_index" on "trade_audit" ("playerBId");`);

    this.addSql(`create table "users" ("id" varchar(64) not null, "idpUserId" varchar(191) null, "socialId" varchar(191) null, "name" varchar(64) null, "role" varchar(16) not null default 'player', "anonymous" boolean not null default false, "createdAt" timestamptz not null default current_timestamp, "lastLoginAt" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_idp_user_id_unique" unique ("idpUserId");`);
    this.addSql(`alter table "users" add constraint "users_social_id_unique" unique ("socialId");`);

    this.addSql(`create table "worldChunks" ("id" serial primary key, "chunkX" int not null, "chunkZ" int not null, "data" jsonb not null, "updatedAt" timestamptz not null default current_timestamp);`);
    this.addSql(`alter table "worldChunks" add constraint "world_chunks_position_unique" unique ("chunkX", "chunkZ");`);

    this.addSql(`alter table "bank" add constraint "bank_slot_check" check (slot >= 0);`);
    this.addSql(`alter table "bank" add constraint "bank_quantity_check" check (quantity >= 1 and quantity <= 2147483647);`);

    this.addSql(`alter table "characters" add constraint "characters_combatLevel_check" check ("combatLevel" >= 3 and "combatLevel" <= 126);`);
    this.addSql(`alter table "characters" add constraint "characters_attackLevel_check" check ("attackLevel" >= 1 and "attackLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_attackXp_check" check ("attackXp" >= 0 and "attackXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_strengthLevel_check" check ("strengthLevel" >= 1 and "strengthLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_strengthXp_check" check ("strengthXp" >= 0 and "strengthXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_defenseLevel_check" check ("defenseLevel" >= 1 and "defenseLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_defenseXp_check" check ("defenseXp" >= 0 and "defenseXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_constitutionLevel_check" check ("constitutionLevel" >= 1 and "constitutionLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_constitutionXp_check" check ("constitutionXp" >= 0 and "constitutionXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_rangedLevel_check" check ("rangedLevel" >= 1 and "rangedLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_rangedXp_check" check ("rangedXp" >= 0 and "rangedXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_magicLevel_check" check ("magicLevel" >= 1 and "magicLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_magicXp_check" check ("magicXp" >= 0 and "magicXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_prayerLevel_check" check ("prayerLevel" >= 1 and "prayerLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_prayerXp_check" check ("prayerXp" >= 0 and "prayerXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_woodcuttingLevel_check" check ("woodcuttingLevel" >= 1 and "woodcuttingLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_woodcuttingXp_check" check ("woodcuttingXp" >= 0 and "woodcuttingXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_miningLevel_check" check ("miningLevel" >= 1 and "miningLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_miningXp_check" check ("miningXp" >= 0 and "miningXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_fishingLevel_check" check ("fishingLevel" >= 1 and "fishingLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_fishingXp_check" check ("fishingXp" >= 0 and "fishingXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_firemakingLevel_check" check ("firemakingLevel" >= 1 and "firemakingLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_firemakingXp_check" check ("firemakingXp" >= 0 and "firemakingXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_cookingLevel_check" check ("cookingLevel" >= 1 and "cookingLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_cookingXp_check" check ("cookingXp" >= 0 and "cookingXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_smithingLevel_check" check ("smithingLevel" >= 1 and "smithingLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_smithingXp_check" check ("smithingXp" >= 0 and "smithingXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_craftingLevel_check" check ("craftingLevel" >= 1 and "craftingLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_craftingXp_check" check ("craftingXp" >= 0 and "craftingXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_fletchingLevel_check" check ("fletchingLevel" >= 1 and "fletchingLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_fletchingXp_check" check ("fletchingXp" >= 0 and "fletchingXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_runecraftingLevel_check" check ("runecraftingLevel" >= 1 and "runecraftingLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_runecraftingXp_check" check ("runecraftingXp" >= 0 and "runecraftingXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_agilityLevel_check" check ("agilityLevel" >= 1 and "agilityLevel" <= 99);`);
    this.addSql(`alter table "characters" add constraint "characters_agilityXp_check" check ("agilityXp" >= 0 and "agilityXp" <= 200000000);`);
    this.addSql(`alter table "characters" add constraint "characters_health_check" check (health >= 0);`);
    this.addSql(`alter table "characters" add constraint "characters_coins_check" check (coins >= 0 and coins <= 2147483647);`);

    this.addSql(`alter table "equipment" add constraint "equipment_slotType_check" check ("slotType" = 'weapon' or "slotType" = 'shield' or "slotType" = 'helmet' or "slotType" = 'body' or "slotType" = 'legs' or "slotType" = 'boots' or "slotType" = 'gloves' or "slotType" = 'cape' or "slotType" = 'amulet' or "slotType" = 'ring' or "slotType" = 'arrows');`);
    this.addSql(`alter table "equipment" add constraint "equipment_quantity_check" check (quantity >= 1 and quantity <= 2147483647);`);

    this.addSql(`alter table "friend_requests" add constraint "friend_requests_not_self" check ("fromAccountId" <> "toAccountId");`);

    this.addSql(`alter table "friendships" add constraint "friendships_not_self" check ("accountId" <> "friendAccountId");`);

    this.addSql(`alter table "inventory" add constraint "inventory_slot_check" check (slot >= 0 and slot <= 27);`);
    this.addSql(`alter table "inventory" add constraint "inventory_quantity_check" check (quantity >= 1 and quantity <= 2147483647);`);

    this.addSql(`alter table "items" add constraint "items_value_check" check (value >= 0);`);

    this.addSql(`alter table "npcKills" add constraint "npcKills_killCount_check" check ("killCount" >= 0);`);

    this.addSql(`alter table "playerDeaths" add constraint "playerDeaths_status_check" check (status = 'pending' or status = 'resolved');`);

    this.addSql(`alter table "users" add constraint "users_role_check" check (role = 'player' or role = 'admin');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "agent_mappings" cascade;`);
    this.addSql(`drop table if exists "bank" cascade;`);
    this.addSql(`drop table if exists "characters" cascade;`);
    this.addSql(`drop table if exists "equipment" cascade;`);
    this.addSql(`drop table if exists "friend_requests" cascade;`);
    this.addSql(`drop table if exists "friendships" cascade;`);
    this.addSql(`drop table if exists "ignore_lists" cascade;`);
    this.addSql(`drop table if exists "inventory" cascade;`);
    this.addSql(`drop table if exists "items" cascade;`);
    this.addSql(`drop table if exists "npcKills" cascade;`);
    this.addSql(`drop table if exists "playerDeaths" cascade;`);
    this.addSql(`drop table if exists "playerSessions" cascade;`);
    this.addSql(`drop table if exists "trade_audit" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
    this.addSql(`drop table if exists "worldChunks" cascade;`);
  }

}
