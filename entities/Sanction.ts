import { defineEntity, p, type InferEntity } from "@mikro-orm/core";

/**
 * `sanctions`: an account's current ban and mute (at most one of each), the truth every server
 * process reads at login and on chat. `endsAt` null: permanent (bans only). A lifted sanction is
 * deleted; an expired one is ignored (and replaced by the next). The history is `admin_audit`.
 */
export const Sanction = defineEntity({
  name: "Sanction",
  tableName: "sanctions",
  properties: {
    accountId: p.string().primary().length(64),
    kind: p.string().primary().length(8).check("kind = 'ban' or kind = 'mute'"),
    endsAt: p.datetime().nullable(),
    reason: p.string().length(255).nullable(),
    /** The admin's account, or `admin-code` for HTTP basic auth with ADMIN_CODE. */
    byAccountId: p.string().length(64),
    createdAt: p
      .datetime()
      .defaultRaw("current_timestamp")
      .onCreate(() => new Date()),
  },
});
export type ISanction = InferEntity<typeof Sanction>;
