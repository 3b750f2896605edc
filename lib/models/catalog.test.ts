// The model catalogue's vision column and the refusal every door gives.
import { describe, expect, it } from "vitest";
import { parseEnv } from "../config/env";
import { modelCapabilities, supportsVision, visionModelsSentence } from "./catalog";
import { VisionNotSupportedError } from "./errors";
import { agentModel, requireVision } from "./vision";

describe("model catalogue: vision", () => {
  it("demo: only demo/vision reads images", () => {
    expect(supportsVision("demo/vision")).toBe(true);
    for (const id of ["demo/assistant", "demo/test", "demo/visionary", "demo/planner"]) expect(supportsVision(id), id).toBe(false);
  });

  it("OpenAI: the gpt-4o, gpt-4.1, gpt-5 and o-series families; not gpt-3.5, gpt-4 or the text-only minis", () => {
    for (const id of ["openai/gpt-4o", "openai/gpt-4o-mini", "openai/gpt-4o-2024-08-06", "openai/gpt-4.1", "openai/gpt-4.1-nano", "openai/gpt-5", "openai/gpt-5-mini", "openai/o1", "openai/o3", "openai/o4-mini"]) {
      expect(supportsVision(id), id).toBe(true);
    }
    for (const id of ["openai/gpt-3.5-turbo", "openai/gpt-4", "openai/gpt-4-0613", "openai/o1-mini", "openai/o3-mini", "openai/o1-preview", "openai/o10", "openai/text-embedding-3-small"]) {
      expect(supportsVision(id), id).toBe(false);
    }
  });

  it("Anthropic: Claude 3 and later", () => {
    for (const id of ["anthropic/claude-3-opus-20240229", "anthropic/claude-3-5-sonnet-latest", "anthropic/claude-3-7-sonnet", "anthropic/claude-sonnet-4", "anthropic/claude-opus-4-1", "anthropic/claude-haiku-4-5"]) {
      expect(supportsVision(id), id).toBe(true);
    }
    for (const id of ["anthropic/claude-2.1", "anthropic/claude-instant-1.2", "anthropic/claude"]) expect(supportsVision(id), id).toBe(false);
  });

  it("openai-compatible: only the models OPENAI_COMPATIBLE_VISION_MODELS names (none by default, * for all)", () => {
    expect(supportsVision("openai-compatible/local/llava")).toBe(false);
    const listed = { openaiCompatibleVision: ["llava", "local/qwen2.5-vl"] };
    expect(supportsVision("openai-compatible/local/llava", listed)).toBe(true);
    expect(supportsVision("openai-compatible/local/qwen2.5-vl", listed), "provider/model entries match too").toBe(true);
    expect(supportsVision("openai-compatible/local/llama3", listed)).toBe(false);
    expect(supportsVision("openai-compatible/local/llama3", { openaiCompatibleVision: "*" })).toBe(true);
    expect(supportsVision("openai/llava", listed), "the list is the compatible provider's only").toBe(false);
  });

  it("reads the variable from the environment", () => {
    const base = { DATABASE_URL: "file:./x.db" };
    expect(parseEnv(base).models.openaiCompatible.visionModels).toEqual([]);
    expect(parseEnv({ ...base, OPENAI_COMPATIBLE_VISION_MODELS: " llava , qwen2.5-vl" }).models.openaiCompatible.visionModels).toEqual(["llava", "qwen2.5-vl"]);
    expect(parseEnv({ ...base, OPENAI_COMPATIBLE_VISION_MODELS: "*" }).models.openaiCompatible.visionModels).toBe("*");
    expect(() => parseEnv({ ...base, OPENAI_COMPATIBLE_VISION_MODELS: "llava;rm -rf" })).toThrow(/OPENAI_COMPATIBLE_VISION_MODELS/);
  });

  it("unknown providers and `inherit` (the fallback, demo/assistant) have no vision", () => {
    expect(modelCapabilities("mistral/pixtral")).toEqual({ vision: false });
    expect(modelCapabilities("inherit")).toEqual({ vision: false });
  });
});

describe("the vision check", () => {
  it("refuses images for a model without vision with a 422 naming the model and the models that can", () => {
    let refused: unknown;
    try {
      requireVision("demo/assistant", 1);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(VisionNotSupportedError);
    const error = refused as VisionNotSupportedError;
    expect(error).toMatchObject({ code: "vision_not_supported", status: 422, model: "demo/assistant" });
    expect(error.userMessage).toContain("demo/assistant cannot read images");
    expect(error.userMessage).toContain("demo/vision");
  });

  it("lets text through to any model, and images to a model with vision", () => {
    expect(() => requireVision("demo/assistant", 0)).not.toThrow();
    expect(() => requireVision("openai/gpt-4o", 3)).not.toThrow();
    expect(() => requireVision("openai-compatible/local/llava", 1, { openaiCompatibleVision: ["llava"] })).not.toThrow();
  });

  it("reads an agent's model from a graph, inheriting from the parent when it says inherit", () => {
    const graph = { agents: [{ name: "a", model: "demo/vision" }, { name: "b", model: "inherit" }] } as Parameters<typeof agentModel>[0];
    expect(agentModel(graph, "a")).toBe("demo/vision");
    expect(agentModel(graph, "b", "openai/gpt-4o")).toBe("openai/gpt-4o");
    expect(agentModel(graph, "b")).toBe("demo/assistant");
    expect(agentModel(graph, "nobody")).toBeNull();
  });

  it("the sentence lists the configured compatible models", () => {
    expect(visionModelsSentence()).not.toContain("openai-compatible");
    expect(visionModelsSentence({ openaiCompatibleVision: ["llava"] })).toContain("openai-compatible models llava");
    expect(visionModelsSentence({ openaiCompatibleVision: "*" })).toContain("every openai-compatible model");
  });
});
