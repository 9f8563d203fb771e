import { Migration } from '@mikro-orm/migrations';

export class Migration20261128161040_combat_style extends Migration {

  override name = 'Migration20261128161040_combat_style';

  override up(): void | Promise<void> {
    this.addSql(`alter table \`characters\` add column \`combatStyle\` text not null default 'accurate';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table \`characters\` drop column \`combatStyle\`;`);
  }

}
