import { Migration } from '@mikro-orm/migrations';

export class Migration20261123094701_agent_token_generation extends Migration {

  override name = 'Migration20261123094701_agent_token_generation';

  override up(): void | Promise<void> {
    this.addSql(`alter table \`agent_mappings\` add column \`tokenGeneration\` integer not null default 0;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table \`agent_mappings\` drop column \`tokenGeneration\`;`);
  }

}
