import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";

describe("parseEnv", () => {
  it("defaults to the embedded database in ./.data on port 3000", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.CREDENCE_DATA_DIR).toBe("./.data");
    expect(env.PORT).toBe(3000);
    expect(env.oidcEnabled).toBe(false);
  });

  it("treats blank variables as unset", () => {
    const env = parseEnv({ DATABASE_URL: "  ", OPENAI_API_KEY: "" });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.OPENAI_API_KEY).toBeUndefined();
  });

  it("accepts a postgres URL and coerces PORT", () => {
    const env = parseEnv({ DATABASE_URL: "postgres://u:p@db:5432/credence", PORT: "8080" });
    expect(env.DATABASE_URL).toBe("postgres://u:p@db:5432/credence");
    expect(env.PORT).toBe(8080);
  });

  it("falls back from AUTH_SECRET to NEXTAUTH_SECRET", () => {
    expect(parseEnv({ NEXTAUTH_SECRET: "b" }).authSecret).toBe("b");
    expect(parseEnv({ AUTH_SECRET: "a", NEXTAUTH_SECRET: "b" }).authSecret).toBe("a");
  });

  it("enables OIDC only when issuer, id and secret are all set", () => {
    expect(parseEnv({ AUTH_OIDC_ISSUER: "https://id.example.com", AUTH_OIDC_ID: "x" }).oidcEnabled).toBe(false);
    expect(
      parseEnv({ AUTH_OIDC_ISSUER: "https://id.example.com", AUTH_OIDC_ID: "x", AUTH_OIDC_SECRET: "y" }).oidcEnabled,
    ).toBe(true);
  });

  it("names every invalid variable", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://x", PORT: "99999" })).toThrow(/DATABASE_URL.*PORT/);
  });
});
