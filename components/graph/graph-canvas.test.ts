import { describe, expect, it } from "vitest";
import { isSoftwareWebgl, layoutOptions, shouldUseWebgl, WEBGL_THRESHOLD } from "./graph-canvas";

describe("renderer choice", () => {
  it("switches to WebGL above the threshold only with a hardware GPU; explicit choices win", () => {
    expect(shouldUseWebgl("auto", WEBGL_THRESHOLD, true)).toBe(false);
    expect(shouldUseWebgl("auto", WEBGL_THRESHOLD + 1, true)).toBe(true);
    expect(shouldUseWebgl("auto", 50_000, false)).toBe(false);
    expect(shouldUseWebgl("webgl", 10, false)).toBe(true);
    expect(shouldUseWebgl("canvas", 50_000, true)).toBe(false);
  });

  it("recognises software WebGL renderers", () => {
    expect(isSoftwareWebgl("ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)")).toBe(true);
    expect(isSoftwareWebgl("llvmpipe (LLVM 15.0.6, 256 bits)")).toBe(true);
    expect(isSoftwareWebgl("ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0)")).toBe(false);
    expect(isSoftwareWebgl("Apple M2")).toBe(false);
  });
});

describe("layout policy", () => {
  it("animates small graphs, drafts large ones, keeps positions when incremental", () => {
    expect(layoutOptions(50, false)).toMatchObject({ name: "fcose", quality: "default", animate: true, randomize: true });
    expect(layoutOptions(800, true)).toMatchObject({ quality: "default", animate: false, randomize: false });
    expect(layoutOptions(5_000, false)).toMatchObject({ quality: "draft", animate: false });
  });
});
