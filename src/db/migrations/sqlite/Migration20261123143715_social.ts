import { Migration } from '@mikro-orm/migrations';

export class Migration20261123143715_social extends Migration {

  override name = 'Migration20261123143715_social';

  override up(): void | Promise<void> {
    this.addSql(`create index "characters_name_lower_index" on "characters" (lower("name"));`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`ignore_lists__temp_alter\` (\`id\` integer not null primary key autoincrement, \`accountId\` text not null, \`ignoredAccountId\` text not null, \`createdAt\` datetime not null default current_timestamp, constraint \`ignore_lists_not_self\` check ("accountId" <> "ignoredAccountId"));`);
    this.addSql(`insert into \`ignore_lists__temp_alter\` select \`id\`, \`accountId\`, \`ignoredAccountId\`, \`createdAt\` from \`ignore_lists\`;`);
    this.addSql(`drop table \`ignore_lists\`;`);
    this.addSql(`alter table \`ignore_lists__temp_alter\` rename to \`ignore_lists\`;`);
    this.addSql(`create unique index \`ignore_lists_pair_unique\` on \`ignore_lists\` (\`accountId\`, \`ignoredAccountId\`);`);
    this.addSql(`pragma foreign_keys = on;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index \`characters_name_lower_index\`;`);

    this.addSql(`pragma foreign_keys = off;`);
    this.addSql(`create table \`ignore_lists__temp_alter\` (\`id\` integer not null primary key autoincrement, \`accountId\` TEXT not null, \`ignoredAccountId\` TEXT not null, \`createdAt\` datetime not null default current_timestamp);`);
    this.addSql(`insert into \`ignore_lists__temp_alter\` select \`id\`, \`accountId\`, \`ignoredAccountId\`, \`createdAt\` from \`ignore_lists\`;`);
    this.addSql(`drop table \`ignore_lists\`;`);
    this.addSql(`alter table \`ignore_lists__temp_alter\` rename to \`ignore_lists\`;`);
    this.addSql(`create unique index \`ignore_lists_pair_unique\` on \`ignore_lists\` (\`accountId\`, \`ignoredAccountId\`);`);
    this.addSql(`pragma foreign_keys = on;`);
  }

}
