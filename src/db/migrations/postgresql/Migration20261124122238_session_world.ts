import { Migration } from '@mikro-orm/migrations';

export class Migration20261124122238_session_world extends Migration {

  override name = 'Migration20261124122238_session_world';

  override up(): void | Promise<void> {
    this.addSql(`alter table "playerSessions" add "world" int not null default 1;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "playerSessions" drop column "world";`);
  }

}
