import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_CREDENCE_URL, mcpEndpoint, parseMcpProxyConfig } from "./stdio-proxy";

describe("stdio proxy configuration", () => {
  it("flags win over the environment, blanks count as absent, the URL defaults to the local server", () => {
    expect(parseMcpProxyConfig({ token: "cred_flag", scope: "team" }, { CREDENCE_TOKEN: "cred_env", CREDENCE_SCOPE: "other", CREDENCE_URL: " " })).toEqual({
      url: DEFAULT_CREDENCE_URL,
      token: "cred_flag",
      scope: "team",
    });
    expect(parseMcpProxyConfig({ token: " " }, { CREDENCE_TOKEN: "cred_env", CREDENCE_URL: "https://credence.example/base" })).toEqual({
      url: "https://credence.example/base",
      token: "cred_env",
    });
  });

  it("refuses a missing token and a non-http URL, saying what to set", () => {
    const problem = (flags: Record<string, string>) => {
      try {
        parseMcpProxyConfig(flags, {});
        return "parsed";
      } catch (error) {
        expect(error).toBeInstanceOf(z.ZodError);
        return (error as z.ZodError).issues.map((i) => i.message).join("; ");
      }
    };
    expect(problem({})).toMatch(/--token \(or CREDENCE_TOKEN\) is required/);
    expect(problem({ token: "cred_x", url: "ftp://host" })).toMatch(/--url \(or CREDENCE_URL\) must be an http\(s\) URL/);
  });

  it("builds the endpoint under the server's origin with the default scope as ?scope=", () => {
    expect(mcpEndpoint({ url: "http://127.0.0.1:3000", token: "t", scope: "security research" }).href).toBe("http://127.0.0.1:3000/api/mcp?scope=security+research");
    expect(mcpEndpoint({ url: "http://127.0.0.1:3000/", token: "t" }).href).toBe("http://127.0.0.1:3000/api/mcp");
    expect(mcpEndpoint({ url: "https://example.org/credence", token: "t" }).href).toBe("https://example.org/credence/api/mcp");
  });
});
