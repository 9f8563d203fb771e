import { Migration } from '@mikro-orm/migrations';

export class Migration20261129012733_consumable_uses extends Migration {

  override name = 'Migration20261129012733_consumable_uses';

  override up(): void | Promise<void> {
    this.addSql(`alter table \`characters\` add column \`consumableUses\` text null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table \`characters\` drop column \`consumableUses\`;`);
  }

}
