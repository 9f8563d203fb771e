/**
 * How env.ts reads a variable's text: a trimmed string, a flag (with `auto` where it has one), an
 * integer within bounds, a URL of given schemes, a comma-separated list. Each turns empty or unset
 * into its default and names what it expected in its error. Moved out of env.ts.
 */
import { z } from "zod";

export const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

/**
 * `true`/`false`/`1`/`0`/`yes`/`no`/`on`/`off` (any case); empty or unset is the default, and so is
 * `auto` where `auto` is given: a default worked out when the config is read.
 */
const flagOf = (byDefault: () => boolean, auto: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = (v ?? "").trim().toLowerCase();
      if (s === "" || (auto && s === "auto")) return byDefault();
      if (["true", "1", "yes", "on"].includes(s)) return true;
      if (["false", "0", "no", "off"].includes(s)) return false;
      ctx.addIssue({ code: "custom", message: `expected true${auto ? ", false or auto" : " or false"}, got "${v}"` });
      return z.NEVER;
    });
export const flag = (defaultValue: boolean) => flagOf(() => defaultValue, false);
export const flagOrAuto = (auto: () => boolean) => flagOf(auto, true);

/** A decimal integer within [min, max], or undefined when empty or unset. */
export const optionalInteger = (min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return undefined;
      const s = v.trim();
      const n = Number(s);
      if (!/^-?\d+$/.test(s) || !Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `expected an integer from ${min} to ${max}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/** A decimal integer within [min, max]; empty or unset is the default. */
export const integer = (defaultValue: number, min: number, max: number) => optionalInteger(min, max).transform((n) => n ?? defaultValue);

/** An absolute URL with one of the given schemes, trailing slash removed. */
export const url = (schemes: string[], defaultValue?: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const raw = v === undefined || v.trim() === "" ? defaultValue : v.trim();
      if (raw === undefined) return undefined;
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        ctx.addIssue({ code: "custom", message: `expected a URL, got "${raw}"` });
        return z.NEVER;
      }
      if (!schemes.includes(parsed.protocol.slice(0, -1))) {
        ctx.addIssue({ code: "custom", message: `expected a ${schemes.join(" or ")} URL, got "${raw}"` });
        return z.NEVER;
      }
      return raw.replace(/\/+$/, "");
    });

export const csv = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? "")
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s !== ""),
  );
