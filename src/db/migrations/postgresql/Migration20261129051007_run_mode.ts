import { Migration } from '@mikro-orm/migrations';

export class Migration20261129051007_run_mode extends Migration {

  override name = 'Migration20261129051007_run_mode';

  override up(): void | Promise<void> {
    this.addSql(`alter table "characters" add "runMode" int not null default 0;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "characters" drop column "runMode";`);
  }

}
