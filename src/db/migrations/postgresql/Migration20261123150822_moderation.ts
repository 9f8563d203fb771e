import { Migration } from '@mikro-orm/migrations';

export class Migration20261123150822_moderation extends Migration {

  override name = 'Migration20261123150822_moderation';

  override up(): void | Promise<void> {
    this.addSql(`create table "admin_audit" ("id" serial primary key, "action" varchar(16) not null, "actorAccountId" varchar(64) not null, "via" varchar(8) not null, "targetAccountId" varchar(64) null, "targetCharacterId" varchar(64) null, "targetName" varchar(64) null, "reason" varchar(255) null, "durationMinutes" int null, "endsAt" timestamptz null, "detail" jsonb null, "createdAt" timestamptz not null default current_timestamp);`);
    this.addSql(`create index "admin_audit_target_index" on "admin_audit" ("targetAccountId");`);
    this.addSql(`create index "admin_audit_created_index" on "admin_audit" ("createdAt");`);

    this.addSql(`create table "sanctions" ("accountId" varchar(64) not null, "kind" varchar(8) not null, "endsAt" timestamptz null, "reason" varchar(255) null, "byAccountId" varchar(64) not null, "createdAt" timestamptz not null default current_timestamp, primary key ("accountId", "kind"));`);

    this.addSql(`alter table "sanctions" add constraint "sanctions_kind_check" check (kind = 'ban' or kind = 'mute');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "admin_audit" cascade;`);
    this.addSql(`drop table if exists "sanctions" cascade;`);
  }

}
