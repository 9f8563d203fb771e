import { Migration } from '@mikro-orm/migrations';

export class Migration20261128193347_run_energy extends Migration {

  override name = 'Migration20261128193347_run_energy';

  override up(): void | Promise<void> {
    this.addSql(`alter table \`characters\` add column \`runEnergy\` integer check ("runEnergy" >= 0 and "runEnergy" <= 10000) not null default 10000;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table \`characters\` drop column \`runEnergy\`;`);
  }

}
