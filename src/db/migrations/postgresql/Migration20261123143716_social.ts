import { Migration } from '@mikro-orm/migrations';

export class Migration20261123143716_social extends Migration {

  override name = 'Migration20261123143716_social';

  override up(): void | Promise<void> {
    this.addSql(`create index "characters_name_lower_index" on "characters" (lower("name"));`);

    this.addSql(`alter table "ignore_lists" add constraint "ignore_lists_not_self" check ("accountId" <> "ignoredAccountId");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "characters_name_lower_index";`);

    this.addSql(`alter table "ignore_lists" drop constraint "ignore_lists_not_self";`);
  }

}
