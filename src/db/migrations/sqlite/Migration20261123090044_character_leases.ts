import { Migration } from '@mikro-orm/migrations';

export class Migration20261123090044_character_leases extends Migration {

  override name = 'Migration20261123090044_character_leases';

  override up(): void | Promise<void> {
    this.addSql(`create table \`character_leases\` (\`characterId\` text not null primary key, \`ownerId\` text not null, \`expiresAt\` datetime not null);`);
    this.addSql(`create index \`character_leases_owner_index\` on \`character_leases\` (\`ownerId\`);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists \`character_leases\`;`);
  }

}
