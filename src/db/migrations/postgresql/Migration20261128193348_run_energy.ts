import { Migration } from '@mikro-orm/migrations';

export class Migration20261128193348_run_energy extends Migration {

  override name = 'Migration20261128193348_run_energy';

  override up(): void | Promise<void> {
    this.addSql(`alter table "characters" add "runEnergy" int not null default 10000;`);
    this.addSql(`alter table "characters" add constraint "characters_runEnergy_check" check ("runEnergy" >= 0 and "runEnergy" <= 10000);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "characters" drop constraint "characters_runEnergy_check";`);
    this.addSql(`alter table "characters" drop column "runEnergy";`);
  }

}
