import { Migration } from '@mikro-orm/migrations';

export class Migration20261123090045_character_leases extends Migration {

  override name = 'Migration20261123090045_character_leases';

  override up(): void | Promise<void> {
    this.addSql(`create table "character_leases" ("characterId" varchar(64) not null, "ownerId" varchar(64) not null, "expiresAt" timestamptz not null, primary key ("characterId"));`);
    this.addSql(`create index "character_leases_owner_index" on "character_leases" ("ownerId");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "character_leases" cascade;`);
  }

}
