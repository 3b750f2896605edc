// Resolves a model id (`<provider>/<model>`) to the provider that serves it.
import { createOpenAI } from "@ai-sdk/openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { AppConfig } from "../../lib/config/env";
import { createAiSdkModel } from "./ai-sdk";
import { createDemoModel } from "./demo";
import { createDemoJudge, DEMO_JUDGE_MODEL_NAME } from "./demo-judge";
import { ModelCallError, type ModelProvider } from "./types";

export interface ModelRegistry {
  /** The provider and the provider-specific model name for a model id. */
  resolve(modelId: string): { provider: ModelProvider; modelName: string };
}

export interface ModelRegistryOptions {
  models: AppConfig["models"];
  demoLatencyMs?: number;
}

export function createModelRegistry({ models, demoLatencyMs }: ModelRegistryOptions): ModelRegistry {
  const demo = createDemoModel({ latencyMs: demoLatencyMs });
  const demoJudge = createDemoJudge();
  const cache = new Map<string, ModelProvider>();
  const cached = (key: string, make: () => ModelProvider) => {
    let provider = cache.get(key);
    if (!provider) {
      provider = make();
      cache.set(key, provider);
    }
    return provider;
  };
  return {
    resolve(modelId) {
      const [kind, ...rest] = modelId.split("/");
      const name = rest.join("/");
      switch (kind) {
        case "demo":
          return { provider: name === DEMO_JUDGE_MODEL_NAME ? demoJudge : demo, modelName: name };
        case "openai":
          if (!models.openai.apiKey) throw new ModelCallError("OPENAI_API_KEY is not set on the worker", false);
          return {
            provider: cached("openai", () => {
              const openai = createOpenAI({ apiKey: models.openai.apiKey, baseURL: models.openai.baseUrl });
              return createAiSdkModel((m) => openai.chat(m));
            }),
            modelName: name,
          };
        case "anthropic":
          if (!models.anthropic.apiKey) throw new ModelCallError("ANTHROPIC_API_KEY is not set on the worker", false);
          return {
            provider: cached("anthropic", () => {
              const anthropic = createAnthropic({ apiKey: models.anthropic.apiKey, baseURL: models.anthropic.baseUrl });
              return createAiSdkModel((m) => anthropic(m));
            }),
            modelName: name,
          };
        case "openai-compatible": {
          const [providerName, ...modelParts] = rest;
          const { baseUrl, apiKey, name: configured, structuredOutputs, toolCallsInText } = models.openaiCompatible;
          if (!baseUrl) throw new ModelCallError("OPENAI_COMPATIBLE_BASE_URL is not set on the worker", false);
          if (providerName !== configured) {
            throw new ModelCallError(`no OpenAI-compatible provider named "${providerName}" (configured: "${configured}")`, false);
          }
          return {
            provider: cached(`compat:${configured}`, () => {
              const compatible = createOpenAICompatible({ name: configured, baseURL: baseUrl, apiKey, supportsStructuredOutputs: structuredOutputs });
              return createAiSdkModel((m) => compatible.chatModel(m), { toolCallsInText });
            }),
            modelName: modelParts.join("/"),
          };
        }
        default:
          throw new ModelCallError(`unknown model provider in "${modelId}"`, false);
      }
    },
  };
}
