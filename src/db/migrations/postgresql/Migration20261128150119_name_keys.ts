import { Migration } from '@mikro-orm/migrations';
import { keyExistingNames } from '../../nameKeys.ts';

export class Migration20261128150119_name_keys extends Migration {

  override name = 'Migration20261128150119_name_keys';

  override async up(): Promise<void> {
    // Names that read the same (`Zezima`, `zezima`, `Zezlma`) are one name: a unique key, worked
    // out for the existing characters (the later of each key renamed) before it is required.
    // Lookups go through the key: the index on lower(name) has no reader left.
    await this.execute(`alter table "characters" add "nameKey" varchar(32) null, add "renamedFrom" varchar(32) null;`);
    await keyExistingNames(this.getEntityManager());
    this.addSql(`alter table "characters" alter column "nameKey" set not null;`);
    this.addSql(`alter table "characters" add constraint "characters_name_key_unique" unique ("nameKey");`);
    this.addSql(`drop index "characters_name_lower_index";`);
  }

  override down(): void | Promise<void> {
    // Characters renamed whose players have not been told yet get their old names back (no other
    // character can have taken one: it read the same as a kept name).
    this.addSql(`update "characters" set "name" = "renamedFrom" where "renamedFrom" is not null;`);
    this.addSql(`alter table "characters" drop constraint "characters_name_key_unique";`);
    this.addSql(`alter table "characters" drop column "nameKey", drop column "renamedFrom";`);
    this.addSql(`create index "characters_name_lower_index" on "characters" (lower("name"));`);
  }

}
