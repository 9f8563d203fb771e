import { Migration } from '@mikro-orm/migrations';
import { keyExistingNames } from '../../nameKeys.ts';

export class Migration20261128150116_name_keys extends Migration {

  override name = 'Migration20261128150116_name_keys';

  override async up(): Promise<void> {
    // Names that read the same (`Zezima`, `zezima`, `Zezlma`) are one name: a unique key, worked
    // out for the existing characters (the later of each key renamed) before it is required.
    // Lookups go through the key: the index on lower(name) has no reader left.
    // SQLite adds a not-null column only with a default: '' until every row has its key, then the
    // table is rebuilt without it (the entity has none).
    await this.execute(`alter table \`characters\` add column \`nameKey\` text not null default '';`);
    await this.execute(`alter table \`characters\` add column \`renamedFrom\` text null;`);
    await keyExistingNames(this.getEntityManager());
    this.addSql(`drop index \`characters_name_lower_index\`;`);
    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`characters__temp_alter\` (\`id\` text not null primary key, \`accountId\` text not null, \`name\` text not null, \`nameKey\` text not null, \`renamedFrom\` text null, \`combatLevel\` integer check ("combatLevel" >= 3 and "combatLevel" <= 126) not null default 3, \`attackLevel\` integer check ("attackLevel" >= 1 and "attackLevel" <= 99) not null default 1, \`attackXp\` integer check ("attackXp" >= 0 and "attackXp" <= 200000000) not null default 0, \`strengthLevel\` integer check ("strengthLevel" >= 1 and "strengthLevel" <= 99) not null default 1, \`strengthXp\` integer check ("strengthXp" >= 0 and "strengthXp" <= 200000000) not null default 0, \`defenseLevel\` integer check ("defenseLevel" >= 1 and "defenseLevel" <= 99) not null default 1, \`defenseXp\` integer check ("defenseXp" >= 0 and "defenseXp" <= 200000000) not null default 0, \`constitutionLevel\` integer check ("constitutionLevel" >= 1 and "constitutionLevel" <= 99) not null default 10, \`constitutionXp\` integer check ("constitutionXp" >= 0 and "constitutionXp" <= 200000000) not null default 1154, \`rangedLevel\` integer check ("rangedLevel" >= 1 and "rangedLevel" <= 99) not null default 1, \`rangedXp\` integer check ("rangedXp" >= 0 and "rangedXp" <= 200000000) not null default 0, \`magicLevel\` integer check ("magicLevel" >= 1 and "magicLevel" <= 99) not null default 1, \`magicXp\` integer check ("magicXp" >= 0 and "magicXp" <= 200000000) not null default 0, \`prayerLevel\` integer check ("prayerLevel" >= 1 and "prayerLevel" <= 99) not null default 1, \`prayerXp\` integer check ("prayerXp" >= 0 and "prayerXp" <= 200000000) not null default 0, \`woodcuttingLevel\` integer check ("woodcuttingLevel" >= 1 and "woodcuttingLevel" <= 99) not null default 1, \`woodcuttingXp\` integer check ("woodcuttingXp" >= 0 and "woodcuttingXp" <= 200000000) not null default 0, \`miningLevel\` integer check ("miningLevel" >= 1 and "miningLevel" <= 99) not null default 1, \`miningXp\` integer check ("miningXp" >= 0 and "miningXp" <= 200000000) not null default 0, \`fishingLevel\` integer check ("fishingLevel" >= 1 and "fishingLevel" <= 99) not null default 1, \`fishingXp\` integer check ("fishingXp" >= 0 and "fishingXp" <= 200000000) not null default 0, \`firemakingLevel\` integer check ("firemakingLevel" >= 1 and "firemakingLevel" <= 99) not null default 1, \`firemakingXp\` integer check ("firemakingXp" >= 0 and "firemakingXp" <= 200000000) not null default 0, \`cookingLevel\` integer check ("cookingLevel" >= 1 and "cookingLevel" <= 99) not null default 1, \`cookingXp\` integer check ("cookingXp" >= 0 and "cookingXp" <= 200000000) not null default 0, \`smithingLevel\` integer check ("smithingLevel" >= 1 and "smithingLevel" <= 99) not null default 1, \`smithingXp\` integer check ("smithingXp" >= 0 and "smithingXp" <= 200000000) not null default 0, \`craftingLevel\` integer check ("craftingLevel" >= 1 and "craftingLevel" <= 99) not null default 1, \`craftingXp\` integer check ("craftingXp" >= 0 and "craftingXp" <= 200000000) not null default 0, \`fletchingLevel\` integer check ("fletchingLevel" >= 1 and "fletchingLevel" <= 99) not null default 1, \`fletchingXp\` integer check ("fletchingXp" >= 0 and "fletchingXp" <= 200000000) not null default 0, \`runecraftingLevel\` integer check ("runecraftingLevel" >= 1 and "runecraftingLevel" <= 99) not null default 1, \`runecraftingXp\` integer check ("runecraftingXp" >= 0 and "runecraftingXp" <= 200000000) not null default 0, \`agilityLevel\` integer check ("agilityLevel" >= 1 and "agilityLevel" <= 99) not null default 1, \`agilityXp\` integer check ("agilityXp" >= 0 and "agilityXp" <= 200000000) not null default 0, \`health\` integer check (health >= 0) not null default 100, \`coins\` integer check (coins >= 0 and coins <= 2147483647) not null default 0, \`positionX\` double not null default 0, \`positionY\` double not null default 10, \`positionZ\` double not null default 0, \`createdAt\` datetime not null default current_timestamp, \`updatedAt\` datetime not null default current_timestamp, \`lastLoginAt\` datetime null, \`version\` integer not null default 1);`);
    this.addSql(`insert into \`characters__temp_alter\` select \`id\`, \`accountId\`, \`name\`, \`nameKey\`, \`renamedFrom\`, \`combatLevel\`, \`attackLevel\`, \`attackXp\`, \`strengthLevel\`, \`strengthXp\`, \`defenseLevel\`, \`defenseXp\`, \`constitutionLevel\`, \`constitutionXp\`, \`rangedLevel\`, \`rangedXp\`, \`magicLevel\`, \`magicXp\`, \`prayerLevel\`, \`prayerXp\`, \`woodcuttingLevel\`, \`woodcuttingXp\`, \`miningLevel\`, \`miningXp\`, \`fishingLevel\`, \`fishingXp\`, \`firemakingLevel\`, \`firemakingXp\`, \`cookingLevel\`, \`cookingXp\`, \`smithingLevel\`, \`smithingXp\`, \`craftingLevel\`, \`craftingXp\`, \`fletchingLevel\`, \`fletchingXp\`, \`runecraftingLevel\`, \`runecraftingXp\`, \`agilityLevel\`, \`agilityXp\`, \`health\`, \`coins\`, \`positionX\`, \`positionY\`, \`positionZ\`, \`createdAt\`, \`updatedAt\`, \`lastLoginAt\`, \`version\` from \`characters\`;`);
    this.addSql(`drop table \`characters\`;`);
    this.addSql(`alter table \`characters__temp_alter\` rename to \`characters\`;`);
    this.addSql(`create index \`characters_account_id_index\` on \`characters\` (\`accountId\`);`);
    this.addSql(`create unique index \`characters_name_unique\` on \`characters\` (\`name\`);`);
    this.addSql(`create unique index \`characters_name_key_unique\` on \`characters\` (\`nameKey\`);`);
    this.addSql(`pragma foreign_keys = on;`);
  }

  override down(): void | Promise<void> {
    // Characters renamed whose players have not been told yet get their old names back (no other
    // character can have taken one: it read the same as a kept name).
    this.addSql(`update \`characters\` set \`name\` = \`renamedFrom\` where \`renamedFrom\` is not null;`);
    this.addSql(`drop index \`characters_name_key_unique\`;`);
    this.addSql(`alter table \`characters\` drop column \`nameKey\`;`);
    this.addSql(`alter table \`characters\` drop column \`renamedFrom\`;`);
    this.addSql(`create index \`characters_name_lower_index\` on \`characters\` (lower(\`name\`));`);
  }

}
