import { Migration } from '@mikro-orm/migrations';

export class Migration20261123150820_moderation extends Migration {

  override name = 'Migration20261123150820_moderation';

  override up(): void | Promise<void> {
    this.addSql(`create table \`admin_audit\` (\`id\` integer not null primary key autoincrement, \`action\` text not null, \`actorAccountId\` text not null, \`via\` text not null, \`targetAccountId\` text null, \`targetCharacterId\` text null, \`targetName\` text null, \`reason\` text null, \`durationMinutes\` integer null, \`endsAt\` datetime null, \`detail\` json null, \`createdAt\` datetime not null default current_timestamp);`);
    this.addSql(`create index \`admin_audit_target_index\` on \`admin_audit\` (\`targetAccountId\`);`);
    this.addSql(`create index \`admin_audit_created_index\` on \`admin_audit\` (\`createdAt\`);`);

    this.addSql(`create table \`sanctions\` (\`accountId\` text not null, \`kind\` text check (kind = 'ban' or kind = 'mute') not null, \`endsAt\` datetime null, \`reason\` text null, \`byAccountId\` text not null, \`createdAt\` datetime not null default current_timestamp, primary key (\`accountId\`, \`kind\`));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`admin_audit\`;`);
    this.addSql(`drop table if exists \`sanctions\`;`);
  }

}
