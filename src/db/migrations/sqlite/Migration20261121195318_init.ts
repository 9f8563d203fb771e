import { Migration } from '@mikro-orm/migrations';

export class Migration20261121195318_init extends Migration {

  override name = 'Migration20261121195318_init';

  override up(): void | Promise<void> {
    this.addSql(`create table \`agent_mappings\` (\`agentId\` text not null primary key, \`accountId\` text not null, \`characterId\` text not null, \`name\` text null, \`goal\` json null, \`goalsPaused\` integer not null default false, \`createdAt\` datetime not null default current_timestamp, \`updatedAt\` datetime not null default current_timestamp);`);
    this.addSql(`create index \`agent_mappings_account_index\` on \`agent_mappings\` (\`accountId\`);`);
    this.addSql(`create index \`agent_mappings_character_index\` on \`agent_mappings\` (\`characterId\`);`);

    this.addSql(`create table \`bank\` (\`id\` integer not null primary key autoincrement, \`characterId\` text not null, \`itemId\` text not null, \`slot\` integer check (slot >= 0) not null, \`quantity\` integer check (quantity between 1 and 2147483647) not null);`);
    this.addSql(`create unique index \`bank_character_item_unique\` on \`bank\` (\`characterId\`, \`itemId\`);`);

    this.addSql(`create table \`characters\` (\`id\` text not null primary key, \`accountId\` text not null, \`name\` text not null, \`combatLevel\` integer check ("combatLevel" between 3 and 126) not null default 3, \`attackLevel\` integer check ("attackLevel" between 1 and 99) not null default 1, \`attackXp\` integer check ("attackXp" between 0 and 200000000) not null default 0, \`strengthLevel\` integer check ("strengthLevel" between 1 and 99) not null default 1, \`strengthXp\` integer check ("strengthXp" between 0 and 200000000) not null default 0, \`defenseLevel\` integer check ("defenseLevel" between 1 and 99) not null default 1, \`defenseXp\` integer check ("defenseXp" between 0 and 200000000) not null default 0, \`constitutionLevel\` integer check ("constitutionLevel" between 1 and 99) not null default 10, \`constitutionXp\` integer check ("constitutionXp" between 0 and 200000000) not null default 1154, \`rangedLevel\` integer check ("rangedLevel" between 1 and 99) not null default 1, \`rangedXp\` integer check ("rangedXp" between 0 and 200000000) not null default 0, \`magicLevel\` integer check ("magicLevel" between 1 and 99) not null default 1, \`magicXp\` integer check ("magicXp" between 0 and 200000000) not null default 0, \`prayerLevel\` integer check ("prayerLevel" between 1 and 99) not null default 1, \`prayerXp\` integer check ("prayerXp" between 0 and 200000000) not null default 0, \`woodcuttingLevel\` integer check ("woodcuttingLevel" between 1 and 99) not null default 1, \`woodcuttingXp\` integer check ("woodcuttingXp" between 0 and 200000000) not null default 0, \`miningLevel\` integer check ("miningLevel" between 1 and 99) not null default 1, \`miningXp\` integer check ("miningXp" between 0 and 200000000) not null default 0, \`fishingLevel\` integer check ("fishingLevel" between 1 and 99) not null default 1, \`fishingXp\` integer check ("fishingXp" between 0 and 200000000) not null default 0, \`firemakingLevel\` integer check ("firemakingLevel" between 1 and 99) not null default 1, \`firemakingXp\` integer check ("firemakingXp" between 0 and 200000000) not null default 0, \`cookingLevel\` integer check ("cookingLevel" between 1 and 99) not null default 1, \`cookingXp\` integer check ("cookingXp" between 0 and 200000000) not null default 0, \`smithingLevel\` integer check ("smithingLevel" between 1 and 99) not null default 1, \`smithingXp\` integer check ("smithingXp" between 0 and 200000000) not null default 0, \`craftingLevel\` integer check ("craftingLevel" between 1 and 99) not null default 1, \`craftingXp\` integer check ("craftingXp" between 0 and 200000000) not null default 0, \`fletchingLevel\` integer check ("fletchingLevel" between 1 and 99) not null default 1, \`fletchingXp\` integer check ("fletchingXp" between 0 and 200000000) not null default 0, \`runecraftingLevel\` integer check ("runecraftingLevel" between 1 and 99) not null default 1, \`runecraftingXp\` integer check ("runecraftingXp" between 0 and 200000000) not null default 0, \`agilityLevel\` integer check ("agilityLevel" between 1 and 99) not null default 1, \`agilityXp\` integer check ("agilityXp" between 0 and 200000000) not null default 0, \`health\` integer check (health >= 0) not null default 100, \`coins\` integer check (coins between 0 and 2147483647) not null default 0, \`positionX\` double not null default 0, \`positionY\` double not null default 10, \`positionZ\` double not null default 0, \`createdAt\` datetime not null default current_timestamp, \`updatedAt\` datetime not null default current_timestamp, \`lastLoginAt\` datetime null, \`version\` integer not null default 1);`);
    this.addSql(`create index \`characters_account_id_index\` on \`characters\` (\`accountId\`);`);
    this.addSql(`create unique index \`characters_name_unique\` on \`characters\` (\`name\`);`);

    this.addSql(`create table \`equipment\` (\`id\` integer not null primary key autoincrement, \`characterId\` text not null, \`slotType\` text check ("slotType" in ('weapon', 'shield', 'helmet', 'body', 'legs', 'boots', 'gloves', 'cape', 'amulet', 'ring', 'arrows')) not null, \`itemId\` text not null, \`quantity\` integer check (quantity between 1 and 2147483647) not null default 1);`);
    this.addSql(`create unique index \`equipment_character_slot_unique\` on \`equipment\` (\`characterId\`, \`slotType\`);`);

    this.addSql(`create table \`friend_requests\` (\`id\` integer not null primary key autoincrement, \`fromAccountId\` text not null, \`toAccountId\` text not null, \`createdAt\` datetime not null default current_timestamp, constraint \`friend_requests_not_self\` check ("fromAccountId" <> "toAccountId"));`);
    this.addSql(`create index \`friend_requests_to_index\` on \`friend_requests\` (\`toAccountId\`);`);
    this.addSql(`create unique index \`friend_requests_pair_unique\` on \`friend_requests\` (\`fromAccountId\`, \`toAccountId\`);`);

    this.addSql(`create table \`friendships\` (\`id\` integer not null primary key autoincrement, \`accountId\` text not null, \`friendAccountId\` text not null, \`createdAt\` datetime not null default current_timestamp, constraint \`friendships_not_self\` check ("accountId" <> "friendAccountId"));`);
    this.addSql(`create unique index \`friendships_pair_unique\` on \`friendships\` (\`accountId\`, \`friendAccountId\`);`);

    this.addSql(`create table \`ignore_lists\` (\`id\` integer not null primary key autoincrement, \`accountId\` text not null, \`ignoredAccountId\` text not null, \`createdAt\` datetime not null default current_timestamp);`);
    this.addSql(`create unique index \`ignore_lists_pair_unique\` on \`ignore_lists\` (\`accountId\`, \`ignoredAccountId\`);`);

    this.addSql(`create table \`inventory\` (\`id\` integer not null primary key autoincrement, \`characterId\` text not null, \`slot\` integer check (slot between 0 and 27) not null, \`itemId\` text not null, \`quantity\` integer check (quantity between 1 and 2147483647) not null);`);
    this.addSql(`create unique index \`inventory_character_slot_unique\` on \`inventory\` (\`characterId\`, \`slot\`);`);

    this.addSql(`create table \`items\` (\`id\` text not null primary key, \`name\` text not null, \`type\` text not null, \`value\` integer check (value >= 0) not null default 0, \`stackable\` integer not null default false, \`tradeable\` integer not null default true, \`data\` json not null, \`updatedAt\` datetime not null default current_timestamp);`);

    this.addSql(`create table \`npcKills\` (\`id\` integer not null primary key autoincrement, \`characterId\` text not null, \`npcId\` text not null, \`killCount\` integer check ("killCount" >= 0) not null default 0, \`lastKillAt\` datetime null);`);
    this.addSql(`create unique index \`npc_kills_character_npc_unique\` on \`npcKills\` (\`characterId\`, \`npcId\`);`);

    this.addSql(`create table \`playerDeaths\` (\`id\` text not null primary key, \`characterId\` text not null, \`positionX\` double not null, \`positionZ\` double not null, \`status\` text check (status in ('pending', 'resolved')) not null default 'pending', \`items\` json not null, \`killedBy\` text null, \`diedAt\` datetime not null default current_timestamp, \`resolvedAt\` datetime null);`);
    this.addSql(`create index \`player_deaths_character_index\` on \`playerDeaths\` (\`characterId\`);`);

    this.addSql(`create table \`playerSessions\` (\`id\` text not null primary key, \`characterId\` text not null, \`accountId\` text not null, \`transport\` text not null, \`remoteAddress\` text null, \`loginAt\` datetime not null default current_timestamp, \`logoutAt\` datetime null, \`logoutReason\` text null);`);
    this.addSql(`create index \`player_sessions_character_index\` on \`playerSessions\` (\`characterId\`);`);

    this.addSql(`create table \`trade_audit\` (\`tradeId\` text not null primary key, \`playerAId\` text not null, \`playerBId\` text not null, \`itemsAToB\` json not null, \`itemsBToA\` json not null, \`valueAToB\` bigint not null default '0', \`valueBToA\` bigint not null default '0', \`completedAt\` datetime not null default current_timestamp);`);
    this.addSql(`create index \`trade_audit_player_a_index\` on \`trade_audit\` (\`playerAId\`);`);
    this.addSql(`create index \`trade_audit_player_b_index\` on \`trade_audit\` (\`playerBId\`);`);

    this.addSql(`create table \`users\` (\`id\` text not null primary key, \`idpUserId\` text null, \`socialId\` text null, \`name\` text null, \`role\` text check (role in ('player', 'admin')) not null default 'player', \`anonymous\` integer not null default false, \`createdAt\` datetime not null default current_timestamp, \`lastLoginAt\` datetime null);`);
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
