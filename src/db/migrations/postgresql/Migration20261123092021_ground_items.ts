import { Migration } from '@mikro-orm/migrations';

export class Migration20261123092021_ground_items extends Migration {

  override name = 'Migration20261123092021_ground_items';

  override up(): void | Promise<void> {
    this.addSql(`create table "ground_items" ("id" varchar(64) not null, "itemId" varchar(64) not null, "quantity" int not null, "x" double precision not null, "z" double precision not null, "ownerId" varchar(64) null, "publicAt" timestamptz not null, "expiresAt" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "ground_items_expires_index" on "ground_items" ("expiresAt");`);

    this.addSql(`alter table "ground_items" add constraint "ground_items_quantity_check" check (quantity >= 1 and quantity <= 2147483647);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "ground_items" cascade;`);
  }

}
