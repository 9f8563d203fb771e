import { Migration } from '@mikro-orm/migrations';

export class Migration20261121195548_init extends Migration {

  override name = 'Migration20261121195548_init';

  override up(): void | Promise<void> {
    this.addSql(`create table \`agent_mappings\` (\`agentId\` text not null primary key, \`accountId\` text not null, \`characterId\` text not null, \`name\` text null, \`goal\` json null, \`goalsPaused\` integer not null default false, \`createdAt\` datetime not null default current_timestamp, \`updatedAt\` datetime not null default current_timestamp);`);
    this.addSql(`create index \`agent_mappings_account_index\` on \`agent_mappings\` (\`accountId\`);`);
    this.addSql(`create index \`agent_mappings_character_index\` on \`agent_mappings\` (\`characterId\`);`);

    this.addSql(`create table \`bank\` (\`id\` integer not null primary key autoincrement, \`characterId\` text not null, \`itemId\` text not null, \`slot\` integer check (slot >= 0) not null, \`quantity\` integer check (quantity >= 1 and quantity <= 2147483647) not null);`);
    this.addSql(`create unique index \`bank_character_item_unique\` on \`bank\` (\`characterId\`, \`itemId\`);`);

    this.addSql(`create table \`characters\` (\`id\` text not null primary key, \`accountId\` text not null, \`name\` text not null, \`combatLevel\` integer check ("combatLevel" >= 3 and "combatLevel" <= 126) not null default 3, \`attackLevel\` integer check ("attackLevel" >= 1 and "attackLevel" <= 99) not null default 1, \`attackXp\` integer check ("attackXp" >= 0 and "attackXp" <= 200000000) not null default 0, \`strengthLevel\` integer check ("strengthLevel" >= 1 and "strengthLevel" <= 99) not null default 1, \`strengthXp\` integer check ("strengthXp" >= 0 and "strengthXp" <= 200000000) not null default 0, \`defenseLevel\` integer check ("defenseLevel" >= 1 and "defenseLevel" <= 99) not null default 1, \`defenseXp\` integer check ("defenseXp" >= 0 and "defenseXp" <= 200000000) not null default 0, \`constitutionLevel\` integer check ("constitutionLevel" >= 1 and "constitutionLevel" <= 99) not null default 10, \`constitutionXp\` integer check ("constitutionXp" >= 0 and "constitutionXp" <= 200000000) not null default 1154, \`rangedLevel\` integer check ("rangedLevel" >= 1 and "rangedLevel" <= 99) not null default 1, \`rangedXp\` integer check ("rangedXp" >= 0 and "rangedXp" <= 200000000) not null default 0, \`magicLevel\` integer check ("magicLevel" >= 1 and "magicLevel" <= 99) not null default 1, \`magicXp\` integer check ("magicXp" >= 0 and "magicXp" <= 200000000) not null default 0, \`prayerLevel\` integer check ("prayerLevel" >= 1 and "prayerLevel" <= 99) not null default 1, \`prayerXp\` integer check ("prayerXp" >= 0 and "prayerXp" <= 200000000) not null default 0, \`woodcuttingLevel\` integer check ("woodcuttingLevel" >= 1 and "woodcuttingLevel" <= 99) not null default 1, \`woodcuttingXp\` integer check ("woodcuttingXp" >= 0 and "woodcuttingXp" <= 200000000) not null default 0, \`miningLevel\` integer check ("miningLevel" >= 1 and "miningLevel" <= 99) not null default 1, \`miningXp\` integer check ("miningXp" >= 0 and "miningXp" <= 200000000) not null default 0, \`fishingLevel\` integer check ("fishingLevel" >= 1 and "fishingLevel" <= 99) not null default 1, \`fishingXp\` integer check ("fishingXp" >= 0 and "fishingXp" <= 200000000) not null default 0, \`firemakingLevel\` integer check ("firemakingLevel" >= 1 and "firemakingLevel" <= 99) not null default 1, \`firemakingXp\` integer check ("firemakingXp" >= 0 and "firemakingXp" <= 200000000) not null default 0, \`cookingLevel\` integer check ("cookingLevel" >= 1 and "cookingLevel" <= 99) not null default 1, \`cookingXp\` integer check ("cookingXp" >= 0 and "cookingXp" <= 200000000) not null default 0, \`smithingLevel\` integer check ("smithingLevel" >= 1 and "smithingLevel" <= 99) not null default 1, \`smithingXp\` integer check ("smithingXp" >= 0 and "smithingXp" <= 200000000) not null default 0, \`craftingLevel\` integer check ("craftingLevel" >= 1 and "craftingLevel" <= 99) not null default 1, \`craftingXp\` integer check ("craftingXp" >= 0 and "craftingXp" <= 200000000) not null default 0, \`fletchingLevel\` integer check ("fletchingLevel" >= 1 and "fletchingLevel" <= 99) not null default 1, \`fletchingXp\` integer check ("fletchingXp" >= 0 and "fletchingXp" <= 200000000) not null default 0, \`runecraftingLevel\` integer check ("runecraftingLevel" >= 1 and "runecraftingLevel" <= 99) not null default 1, \`runecraftingXp\` integer check ("runecraftingXp" >= 0 and "runecraftingXp" <= 200000000) not null default 0, \`agilityLevel\` integer check ("agilityLevel" >= 1 and "agilityLevel" <= 99) not null default 1, \`agilityXp\` integer check ("agilityXp" >= 0 and "agilityXp" <= 200000000) not null default 0, \`health\` integer check (health >= 0) not null default 100, \`coins\` integer check (coins >= 0 and coins <= 2147483647) not null default 0, \`positionX\` double not null default 0, \`positionY\` double not null default 10, \`positionZ\` double not null default 0, \`createdAt\` datetime not null default current_timestamp, \`updatedAt\` datetime not null default current_timestamp, \`lastLoginAt\` datetime null, \`version\` integer not null default 1);`);
    this.addSql(`create index \`characters_account_id_index\` on \`characters\` (\`accountId\`);`);
    this.addSql(`create unique index \`characters_name_unique\` on \`characters\` (\`name\`);`);

    this.addSql(`create table \`equipment\` (\`id\` integer not null primary key autoincrement, \`characterId\` text not null, \`slotType\` text check ("slotType" = 'weapon' or "slotType" = 'shield' or "slotType" = 'helmet' or "slotType" = 'body' or "slotType" = 'legs' or "slotType" = 'boots' or "slotType" = 'gloves' or "slotType" = 'cape' or "slotType" = 'amulet' or "slotType" = 'ring' or "slotType" = 'arrows') not null, \`itemId\` text not null, \`quantity\` integer check (quantity >= 1 and quantity <= 2147483647) not null default 1);`);
    this.addSql(`create unique index \`equipment_character_slot_unique\` on \`equipment\` (\`characterId\`, \`slotType\`);`);

    this.addSql(`create table \`friend_requests\` (\`id\` integer not null primary key autoincrement, \`fromAccountId\` text not null, \`toAccountId\` text not null, \`createdAt\` datetime not null default current_timestamp, constraint \`friend_requests_not_self\` check ("fromAccountId" <> "toAccountId"));`);
    this.addSql(`create index \`friend_requests_to_index\` on \`friend_requests\` (\`toAccountId\`);`);
    this.addSql(`create unique index \`friend_requests_pair_unique\` on \`friend_requests\` (\`fromAccountId\`, \`toAccountId\`);`);

    this.addSql(`create table \`friendships\` (\`id\` integer not null primary key autoincrement, \`accountId\` text not null, \`friendAccountId\` text not null, \`createdAt\` datetime not null default current_timestamp, constraint \`friendships_not_self\` check ("accountId" <> "friendAccountId"));`);
    this.addSql(`create unique index \`friendships_pair_unique\` on \`friendships\` (\`accountId\`, \`friendAccountId\`);`);

    this.addSql(`create table \`ignore_lists\` (\`id\` integer not null primary key autoincrement, \`accountId\` text not null, \`ignoredAccountId\` text not null, \`createdAt\` datetime not null default current_timestamp);`);
    this.addSql(`create unique index \`ignore_lists_pair_unique\` on \`ignore_lists\` (\`accountId\`, \`ignoredAccountId\`);`);

    this.addSql(`create table \`inventory\` (\`id\` integer not null primary key autoincrement, \`characterId\` text not null, \`slot\` integer check (slot >= 0 and slot <= 27) not null, \`itemId\` text not null, \`quantity\` integer check (quantity >= 1 and quantity <= 2147483647) not null);`);
    this.addSql(`create unique index \`inventory_character_slot_unique\` on \`inventory\` (\`characterId\`, \`slot\`);`);

    this.addSql(`create table \`items\` (\`id\` text not null primary key, \`name\` text not null, \`type\` text not null, \`value\` integer check (value >= 0) not null default 0, \`stackable\` integer not null default false, \`tradeable\` integer not null default true, \`data\` json not null, \`updatedAt\` datetime not null default current_timestamp);`);

    this.addSql(`create table \`npcKills\` (\`id\` integer not null primary key autoincrement, \`characterId\` text not null, \`npcId\` text not null, \`killCount\` integer check ("killCount" >= 0) not null default 0, \`lastKillAt\` datetime null);`);
    this.addSql(`create unique index \`npc_kills_character_npc_unique\` on \`npcKills\` (\`characterId\`, \`npcId\`);`);

    this.addSql(`create table \`playerDeaths\` (\`id\` text not null primary key, \`characterId\` text not null, \`positionX\` double not null, \`positionZ\` double not null, \`status\` text check (status = 'pending' or status = 'resolved') not null default 'pending', \`items\` json not null, \`killedBy\` text null, \`diedAt\` datetime not null default current_timestamp, \`resolvedAt\` datetime null);`);
    this.addSql(`create index \`player_deaths_character_index\` on \`playerDeaths\` (\`characterId\`);`);

    this.addSql(`create table \`playerSessions\` (\`id\` text not null primary key, \`characterId\` text not null, \`accountId\` text not null, \`transport\` text not null, \`remoteAddress\` text null, \`loginAt\` datetime not null default current_timestamp, \`logoutAt\` datetime null, \`logoutReason\` text null);`);
    this.addSql(`create index \`player_sessions_character_index\` on \`playerSessions\` (\`characterId\`);`);

    this.addSql(`create table \`trade_audit\` (\`tradeId\` text not null primary key, \`playerAId\` text not null, \`playerBId\` text not null, \`itemsAToB\` json not null, \`itemsBToA\` json not null, \`valueAToB\` bigint not null default '0', \`valueBToA\` bigint not null default '0', \`completedAt\` datetime not null default current_timestamp);`);
    this.addSql(`create index \`trade_audit_player_a_index\` on \`trade_audit\` (\`playerAId\`);`);
    this.addSql(`create index \`trade_audit_player_b_index\` on \`trade_audit\` (\`playerBId\`);`);

    this.addSql(`create table \`users\` (\`id\` text not null primary key, \`idpUserId\` text null, \`socialId\` text null, \`name\` text null, \`role\` text check (role = 'player' or role = 'admin') not null default 'player', \`anonymous\` integer not null default false, \`createdAt\` datetime not null default current_timestamp, \`lastLoginAt\` datetime null);`);
    this.addSql(`create unique index \`users_idp_user_id_unique\` on \`users\` (\`idpUserId\`);`);
    this.addSql(`create unique index \`users_social_id_unique\` on \`users\` (\`socialId\`);`);

    this.addSql(`create table \`worldChunks\` (\`id\` integer not null primary key autoincrement, \`chunkX\` integer not null, \`chunkZ\` integer not null, \`data\` json not null, \`updatedAt\` datetime not null default current_timestamp);`);
    this.addSql(`create unique index \`world_chunks_position_unique\` on \`worldChunks\` (\`chunkX\`, \`chunkZ\`);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`agent_mappings\`;`);
    this.addSql(`drop table if exists \`bank\`;`);
    this.addSql(`drop table if exists \`characters\`;`);
    this.addSql(`drop table if exists \`equipment\`;`);
    this.addSql(`drop table if exists \`friend_requests\`;`);
    this.addSql(`drop table if exists \`friendships\`;`);
    this.addSql(`drop table if exists \`ignore_lists\`;`);
    this.addSql(`drop table if exists \`inventory\`;`);
    this.addSql(`drop table if exists \`items\`;`);
    this.addSql(`drop table if exists \`npcKills\`;`);
    this.addSql(`drop table if exists \`playerDeaths\`;`);
    this.addSql(`drop table if exists \`playerSessions\`;`);
    this.addSql(`drop table if exists \`trade_audit\`;`);
    this.addSql(`drop table if exists \`users\`;`);
    this.addSql(`drop table if exists \`worldChunks\`;`);
  }

}
