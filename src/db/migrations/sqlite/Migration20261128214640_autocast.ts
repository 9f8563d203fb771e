import { Migration } from '@mikro-orm/migrations';

export class Migration20261128214640_autocast extends Migration {

  override name = 'Migration20261128214640_autocast';

  override up(): void | Promise<void> {
    this.addSql(`alter table \`characters\` add column \`autocast\` text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table \`characters\` drop column \`autocast\`;`);
  }

}
