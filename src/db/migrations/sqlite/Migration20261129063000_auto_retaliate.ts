import { Migration } from '@mikro-orm/migrations';

export class Migration20261129063000_auto_retaliate extends Migration {

  override name = 'Migration20261129063000_auto_retaliate';

  override up(): void | Promise<void> {
    this.addSql(`alter table \`characters\` add column \`autoRetaliate\` integer not null default 1;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table \`characters\` drop column \`autoRetaliate\`;`);
  }

}
