/**
 * Chat commands an agent obeys, from its owner (`agent:message`) or from anyone in chat who
 * addresses it by name ("Robin, chop trees", "@robin status", "robin: stop"). The quick commands
 * of the server's `quick-actions` (`stop`, `resume`, `bank`, `home`) are commands too.
 */
import { parseFocus, type Focus } from "./focus.ts";

export type Command =
  | { kind: "stop" }
  | { kind: "resume" }
  | { kind: "status" }
  | { kind: "home" }
  | { kind: "bank" }
  | { kind: "follow"; name: string }
  | { kind: "goal"; type: string; target?: string | undefined }
  | { kind: "focus"; focus: Focus | null }
  | { kind: "unknown"; text: string };

const GOAL_WORDS: [RegExp, string][] = [
  [/^(chop|cut|chop trees?|cut trees?|woodcut(ting)?)$/, "woodcutting"],
  [/^(fish|fishing|catch fish)$/, "fishing"],
  [/^(mine|mining|mine rocks?|mine ores?)$/, "mining"],
  [/^(cook|cooking|cook food)$/, "cooking"],
  [/^(light fires?|firemaking|burn logs)$/, "firemaking"],
  [/^(explore|wander)$/, "explore"],
  [/^(fight|combat|attack)$/, "combat"],
];

/** Reads one command; `text` is the whole message once the agent's name is taken off. */
export function parseCommand(text: string): Command {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/[.!?]+$/, "")
    .replace(/\s+/g, " ");
  if (t === "stop" || t === "pause" || t === "halt") return { kind: "stop" };
  if (t === "resume" || t === "go on" || t === "continue" || t === "start") return { kind: "resume" };
  if (t === "status" || t === "report") return { kind: "status" };
  if (t === "home" || t === "go home" || t === "return home") return { kind: "home" };
  if (t === "bank" || t === "go to bank" || t === "go to the bank" || t === "go bank") return { kind: "bank" };
  const follow = /^follow (.+)$/.exec(t);
  if (follow)
    return {
      kind: "follow",
      name: text
        .trim()
        .replace(/^follow\s+/i, "")
        .replace(/[.!?]+$/, ""),
    };
  // "focus melee", "train quests", "focus off" (focus.ts); an unknown focus is an unknown command.
  const focus = /^(?:focus(?: on)?|train) (.+)$/.exec(t);
  const focused = focus === null ? undefined : parseFocus(focus[1]!);
  if (focused !== undefined) return { kind: "focus", focus: focused };
  const fight = /^(?:fight|attack|kill) (.+)$/.exec(t);
  if (fight) return { kind: "goal", type: "combat", target: fight[1]!.replace(/s$/, "") };
  for (const [re, type] of GOAL_WORDS) if (re.test(t)) return { kind: "goal", type };
  return { kind: "unknown", text: text.trim() };
}

/**
 * The command in a chat line addressed to `name` ("Name, …", "Name: …", "@Name …", "Name …"), or
 * undefined when the line is not for this agent.
 */
export function addressedTo(name: string, message: string): string | undefined {
  const m = message.trim();
  const lower = m.toLowerCase();
  const n = name.toLowerCase();
  for (const prefix of [`@${n}`, n]) {
    if (!lower.startsWith(prefix)) continue;
    const rest = m.slice(prefix.length);
    // The name must end there ("Rob" is not addressed by "Robin ...").
    if (rest !== "" && !/^[\s,:;!-]/.test(rest)) continue;
    const command = rest.replace(/^[\s,:;!-]+/, "");
    return command === "" ? undefined : command;
  }
  return undefined;
}
