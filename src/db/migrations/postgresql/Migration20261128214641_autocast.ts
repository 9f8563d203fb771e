import { Migration } from '@mikro-orm/migrations';

export class Migration20261128214641_autocast extends Migration {

  override name = 'Migration20261128214641_autocast';

  override up(): void | Promise<void> {
    this.addSql(`alter table "characters" add "autocast" varchar(64) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "characters" drop column "autocast";`);
  }

}
