import { Migration } from '@mikro-orm/migrations';

export class Migration20261127232830_agent_one_per_character extends Migration {

  override name = 'Migration20261127232830_agent_one_per_character';

  override up(): void | Promise<void> {
    // One agent a character, kept by the database: the check in AgentService.register runs under an
    // account lock that is one process's, so two processes of a cluster could both pass it. Such a
    // character's agents logged each other out at every login; the first registered is kept.
    this.addSql(`delete from \`agent_mappings\` where exists (select 1 from \`agent_mappings\` as \`o\` where \`o\`.\`characterId\` = \`agent_mappings\`.\`characterId\` and (\`o\`.\`createdAt\` < \`agent_mappings\`.\`createdAt\` or (\`o\`.\`createdAt\` = \`agent_mappings\`.\`createdAt\` and \`o\`.\`agentId\` < \`agent_mappings\`.\`agentId\`)));`);
    this.addSql(`drop index \`agent_mappings_character_index\`;`);
    this.addSql(`create unique index \`agent_mappings_character_unique\` on \`agent_mappings\` (\`characterId\`);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index \`agent_mappings_character_unique\`;`);
    this.addSql(`create index \`agent_mappings_character_index\` on \`agent_mappings\` (\`characterId\`);`);
  }

}
