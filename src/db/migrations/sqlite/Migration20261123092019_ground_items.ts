import { Migration } from '@mikro-orm/migrations';

export class Migration20261123092019_ground_items extends Migration {

  override name = 'Migration20261123092019_ground_items';

  override up(): void | Promise<void> {
    this.addSql(`create table \`ground_items\` (\`id\` text not null primary key, \`itemId\` text not null, \`quantity\` integer check (quantity >= 1 and quantity <= 2147483647) not null, \`x\` double not null, \`z\` double not null, \`ownerId\` text null, \`publicAt\` datetime not null, \`expiresAt\` datetime not null);`);
    this.addSql(`create index \`ground_items_expires_index\` on \`ground_items\` (\`expiresAt\`);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`ground_items\`;`);
  }

}
