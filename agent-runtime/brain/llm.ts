/**
 * The language-model brain (optional): a model chooses among the goals the server offers and
 * writes the chat replies, through the AI SDK (`ai`) and one of its provider packages. The
 * scripted brain it is given stays the authority whenever the model cannot be used: over budget,
 * on an error, on a timeout, on output that fails the schema, or on a choice the server does not
 * offer. A model brain never throws for the model's sake; only the fallback's own errors go up.
 *
 * Configuration (`modelBrainFromEnv`), first match wins:
 * - `LOCAL_MODEL_URL` (+ `LOCAL_MODEL_NAME`, `LOCAL_MODEL_API_KEY`): an OpenAI-compatible server
 *   (Ollama `http://localhost:11434/v1`, a llama.cpp server `http://localhost:8080/v1`);
 * - `OPENAI_API_KEY` (+ `OPENAI_MODEL`);
 * - `ANTHROPIC_API_KEY` (+ `ANTHROPIC_MODEL`).
 * Bounds: `AGENT_MODEL_TIMEOUT_MS` per call, `AGENT_MODEL_CALLS_PER_MINUTE` per brain instance
 * (the runtime makes one per agent, so this is a per-agent budget).
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, Output, type LanguageModel } from "ai";
import { z } from "zod";
import type { Brain, GoalChoice, Observation } from "./Brain.ts";

export const MODEL_DEFAULTS = {
  openaiModel: "gpt-4o-mini",
  anthropicModel: "claude-haiku-4-5",
  localModel: "llama3.2",
  timeoutMs: 10_000,
  callsPerMinute: 6,
} as const;

/** The longest chat line a model reply may become. */
export const MAX_REPLY_CHARS = 200;
const MAX_REASON_CHARS = 120;
const WINDOW_MS = 60_000;

/**
 * What the model must answer for a goal choice. `target` is nullable rather than optional so the
 * schema stays valid for strict structured-output modes (every property listed as required).
 */
export const goalChoiceSchema = z.object({
  type: z.string().describe("the type of one of the available goals, spelled as given"),
  target: z.string().nullable().describe("one of that goal's targets, or null when it has none or any will do"),
  reason: z.string().describe("why, in a few words"),
});

export type FallbackReason = "budget" | "timeout" | "error" | "invalid" | "unavailable" | "empty";

export interface ModelBrainStats {
  /** Requests sent to the model. */
  calls: number;
  /** Decisions and replies the model made and that were used. */
  used: number;
  /** Times the fallback brain decided instead, by why. */
  fallbacks: Record<FallbackReason, number>;
  /** The last failure, for display (`timeout after 10000 ms`, `invalid output: …`). */
  lastError: string | undefined;
}

export interface ModelBrainOptions {
  /** A clock for the per-minute budget (tests); `Date.now` by default. */
  now?: () => number;
  /** A fetch for the providers (tests, proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

export interface ModelConfig {
  provider: "local" | "openai" | "anthropic";
  model: string;
  timeoutMs: number;
  callsPerMinute: number;
}

function positiveInt(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer (got "${raw}")`);
  return n;
}

function set(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v === undefined || v === "" ? undefined : v;
}

/** Strips control characters (newlines included), collapses spaces, trims. */
function oneLine(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** Thrown inside the brain to route to the fallback with a reason; never leaves it. */
class ModelFailure extends Error {
  readonly kind: FallbackReason;
  constructor(kind: FallbackReason, message: string) {
    super(message);
    this.kind = kind;
  }
}

const FALLBACK_LABEL: Record<FallbackReason, string> = {
  budget: "model budget spent",
  timeout: "model timed out",
  error: "model call failed",
  invalid: "model answered malformed output",
  unavailable: "model chose an unavailable goal",
  empty: "model answered nothing",
};

const GOAL_INSTRUCTIONS = [
  "You are the mind of a character in a RuneScape-like multiplayer game, playing as an ordinary player.",
  "Choose the character's next goal from the available goals only, using the observation (skills, inventory, health, what is nearby, recent goals).",
  "Answer with the goal's type exactly as given, a target from that goal's targets (or null), and a short reason.",
  "Prefer steady progress: train skills it can, bank when the inventory is full, eat or leave a fight when health is low, vary goals that keep failing.",
  "A quest goal's targets are quest ids: the observation's quests give each one's status and what to do now; doing quests earns quest points and rewards.",
].join(" ");

const REPLY_INSTRUCTIONS = [
  "You are a character in a RuneScape-like multiplayer game, chatting in the game's public chat.",
  `Answer the message in one short, friendly line (under ${MAX_REPLY_CHARS} characters), in character, with no markup.`,
  "You may use the observation of your own state to answer. Never claim to have done something you have not.",
].join(" ");

/**
 * The brain that asks a model, bounded by a timeout per call and a budget per minute; see the
 * module comment. One instance per agent.
 */
export class ModelBrain implements Brain {
  readonly name: string;
  readonly config: ModelConfig;
  readonly stats: ModelBrainStats = {
    calls: 0,
    used: 0,
    fallbacks: { budget: 0, timeout: 0, error: 0, invalid: 0, unavailable: 0, empty: 0 },
    lastError: undefined,
  };
  private readonly model: LanguageModel;
  private readonly fallback: Brain;
  private readonly now: () => number;
  /** Start times of the calls in the last minute, oldest first. */
  private readonly recent: number[] = [];

  constructor(model: LanguageModel, config: ModelConfig, fallback: Brain, options: ModelBrainOptions = {}) {
    this.model = model;
    this.config = config;
    this.fallback = fallback;
    this.now = options.now ?? Date.now;
    this.name = `${config.provider}:${config.model}`;
  }

  /** Calls left in the current minute. */
  budgetLeft(): number {
    const now = this.now();
    while (this.recent.length > 0 && this.recent[0]! <= now - WINDOW_MS) this.recent.shift();
    return Math.max(0, this.config.callsPerMinute - this.recent.length);
  }

  async chooseGoal(obs: Observation): Promise<GoalChoice> {
    try {
      const answer = await this.call(async (abortSignal) => {
        const result = await generateText({
          model: this.model,
          instructions: GOAL_INSTRUCTIONS,
          prompt: `Observation (JSON):\n${forModel(obs)}\n\nChoose the next goal.`,
          output: Output.object({ schema: goalChoiceSchema, name: "goal_choice", description: "The character's next goal" }),
          maxRetries: 0,
          maxOutputTokens: 200,
          temperature: 0.3,
          abortSignal,
        });
        return result.output;
      });
      const choice = this.validate(answer, obs);
      this.stats.used += 1;
      return choice;
    } catch (err) {
      const failure = this.failure(err);
      const scripted = await this.fallback.chooseGoal(obs);
      return { ...scripted, reason: `${FALLBACK_LABEL[failure.kind]}; ${this.fallback.name}: ${scripted.reason}` };
    }
  }

  async reply(message: string, from: string, obs: Observation): Promise<string> {
    try {
      const text = await this.call(async (abortSignal) => {
        const result = await generateText({
          model: this.model,
          instructions: REPLY_INSTRUCTIONS,
          prompt: `Your state (JSON): ${forModel(obs)}\n\n${oneLine(from)} says: ${oneLine(message)}\n\nYour reply:`,
          maxRetries: 0,
          maxOutputTokens: 80,
          temperature: 0.7,
          abortSignal,
        });
        return result.text;
      });
      const line = clip(
        oneLine(text)
          .replace(/^(["'])(.*)\1$/, "$2")
          .trim(),
        MAX_REPLY_CHARS,
      );
      if (line === "") throw new ModelFailure("empty", "empty reply");
      this.stats.used += 1;
      return line;
    } catch (err) {
      this.failure(err);
      return this.fallback.reply(message, from, obs);
    }
  }

  /**
   * One request, if the budget allows, bounded by the timeout: the signal aborts the request and
   * the race ends the wait even if a provider were to ignore the signal.
   */
  private async call<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.budgetLeft() === 0) {
      throw new ModelFailure("budget", `budget of ${this.config.callsPerMinute} calls per minute spent`);
    }
    this.recent.push(this.now());
    this.stats.calls += 1;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const failure = new ModelFailure("timeout", `timeout after ${this.config.timeoutMs} ms`);
        controller.abort(failure);
        reject(failure);
      }, this.config.timeoutMs);
    });
    const request = run(controller.signal);
    // The losing side of the race must not surface as an unhandled rejection.
    request.catch(() => undefined);
    try {
      return await Promise.race([request, timedOut]);
    } catch (err) {
      if (controller.signal.aborted) throw new ModelFailure("timeout", `timeout after ${this.config.timeoutMs} ms`);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The model's answer as one of the offered goals, with the server's spelling. */
  private validate(answer: z.infer<typeof goalChoiceSchema>, obs: Observation): GoalChoice {
    const type = answer.type.trim().toLowerCase();
    const option = obs.availableGoals.find((g) => g.type.toLowerCase() === type);
    if (option === undefined) throw new ModelFailure("unavailable", `goal "${clip(oneLine(answer.type), 40)}" is not available`);
    const wanted = answer.target?.trim().toLowerCase() ?? "";
    let target: string | undefined;
    if (option.targets.length > 0 && wanted !== "") {
      target = option.targets.find((t) => t.toLowerCase() === wanted);
      if (target === undefined) {
        throw new ModelFailure("unavailable", `target "${clip(oneLine(answer.target ?? ""), 40)}" is not available for ${option.type}`);
      }
    }
    // A target for a goal that has none is dropped: the goal itself is a valid choice.
    const reason = clip(oneLine(answer.reason), MAX_REASON_CHARS) || "no reason given";
    return { type: option.type, ...(target !== undefined ? { target } : {}), reason: `${this.name}: ${reason}` };
  }

  /** Counts a failure and says which kind it was. */
  private failure(err: unknown): ModelFailure {
    const failure =
      err instanceof ModelFailure
        ? err
        : isOutputError(err)
          ? new ModelFailure("invalid", `invalid output: ${errorText(err)}`)
          : new ModelFailure("error", errorText(err));
    this.stats.fallbacks[failure.kind] += 1;
    this.stats.lastError = clip(oneLine(failure.message), 300);
    return failure;
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** The SDK's errors for output that does not parse or does not fit the schema. */
function isOutputError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return ["AI_NoObjectGeneratedError", "AI_NoOutputGeneratedError", "AI_JSONParseError", "AI_TypeValidationError"].includes(err.name);
}

/**
 * The configured model, or undefined when none is (then the runtime uses the scripted brain
 * alone). Precedence when several are set: LOCAL_MODEL_URL, then OPENAI_API_KEY, then
 * ANTHROPIC_API_KEY. Throws on a malformed bound (a typo in the environment is a startup error).
 */
export function modelConfigFromEnv(env: Record<string, string | undefined>): (ModelConfig & { baseURL?: string; apiKey?: string }) | undefined {
  const timeoutMs = positiveInt(env.AGENT_MODEL_TIMEOUT_MS, MODEL_DEFAULTS.timeoutMs, "AGENT_MODEL_TIMEOUT_MS");
  const callsPerMinute = positiveInt(env.AGENT_MODEL_CALLS_PER_MINUTE, MODEL_DEFAULTS.callsPerMinute, "AGENT_MODEL_CALLS_PER_MINUTE");
  const bounds = { timeoutMs, callsPerMinute };
  const localUrl = set(env.LOCAL_MODEL_URL);
  if (localUrl !== undefined) {
    if (!URL.canParse(localUrl)) throw new Error(`LOCAL_MODEL_URL is not a URL (got "${localUrl}")`);
    const apiKey = set(env.LOCAL_MODEL_API_KEY);
    return {
      provider: "local",
      model: set(env.LOCAL_MODEL_NAME) ?? MODEL_DEFAULTS.localModel,
      baseURL: localUrl.replace(/\/+$/, ""),
      ...(apiKey !== undefined ? { apiKey } : {}),
      ...bounds,
    };
  }
  const openaiKey = set(env.OPENAI_API_KEY);
  if (openaiKey !== undefined) return { provider: "openai", model: set(env.OPENAI_MODEL) ?? MODEL_DEFAULTS.openaiModel, apiKey: openaiKey, ...bounds };
  const anthropicKey = set(env.ANTHROPIC_API_KEY);
  if (anthropicKey !== undefined) {
    return { provider: "anthropic", model: set(env.ANTHROPIC_MODEL) ?? MODEL_DEFAULTS.anthropicModel, apiKey: anthropicKey, ...bounds };
  }
  return undefined;
}

/**
 * A model brain over `fallback` when a model is configured in `env`, else undefined. See
 * `modelConfigFromEnv` for the variables and their precedence.
 */
export function modelBrainFromEnv(env: Record<string, string | undefined>, fallback: Brain, options: ModelBrainOptions = {}): ModelBrain | undefined {
  const config = modelConfigFromEnv(env);
  if (config === undefined) return undefined;
  const { baseURL, apiKey, ...rest } = config;
  const fetch = options.fetch !== undefined ? { fetch: options.fetch } : {};
  let model: LanguageModel;
  switch (rest.provider) {
    case "local":
      model = createOpenAICompatible({
        name: "local",
        baseURL: baseURL!,
        ...(apiKey !== undefined ? { apiKey } : {}),
        // Ollama and the llama.cpp server both honour response_format json_schema.
        supportsStructuredOutputs: true,
        ...fetch,
      }).chatModel(rest.model);
      break;
    case "openai":
      model = createOpenAI({ apiKey: apiKey!, ...fetch })(rest.model);
      break;
    case "anthropic":
      model = createAnthropic({ apiKey: apiKey!, ...fetch })(rest.model);
      break;
  }
  return new ModelBrain(model, rest, fallback, options);
}

/** The observation as the model reads it: the last 10 goals (the scripted policy remembers RECENT_GOALS; the prompt stays short). */
function forModel(obs: Observation): string {
  return JSON.stringify({ ...obs, recentGoals: obs.recentGoals.slice(0, 10) });
}
