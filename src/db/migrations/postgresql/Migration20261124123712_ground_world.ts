import { Migration } from '@mikro-orm/migrations';

export class Migration20261124123712_ground_world extends Migration {

  override name = 'Migration20261124123712_ground_world';

  override up(): void | Promise<void> {
    this.addSql(`alter table "ground_items" add "world" int not null default 1;`);
    this.addSql(`create index "ground_items_world_index" on "ground_items" ("world");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "ground_items_world_index";`);
    this.addSql(`alter table "ground_items" drop column "world";`);
  }

}
