// The model catalogue: what a model id can do, for checks made before a run
// starts (the engine client's vision check) and for the dialog's hints.
// Browser-safe and dependency-free: the web server passes what the environment
// adds (OPENAI_COMPATIBLE_VISION_MODELS, parsed in lib/config/env.ts).
import { effectiveModel } from "../agents/model-inheritance";

export interface ModelCapabilities {
  /** The model reads images in user messages. */
  vision: boolean;
}

/** What the deployment adds to the catalogue (an OpenAI-compatible server's models are not knowable from their names). */
export interface CatalogOptions {
  /** Model names of the OpenAI-compatible provider that read images (`*`: all of them); default none. */
  openaiCompatibleVision?: readonly string[] | "*";
}

/** The catalogue's options from the parsed environment (structurally: the catalogue stays browser-safe). */
export function catalogOptions(config: { models: { openaiCompatible: { visionModels: readonly string[] | "*" } } }): CatalogOptions {
  return { openaiCompatibleVision: config.models.openaiCompatible.visionModels };
}

/** The demo catalogue's model that reads images (worker/models/demo-vision.ts). */
export const DEMO_VISION_MODEL = "demo/vision";

// OpenAI's multimodal families. The o1/o3 minis and o1-preview are text-only.
const OPENAI_VISION = /^(gpt-4o|gpt-4\.1|gpt-5|o1|o3|o4)(?![a-z0-9])/;
const OPENAI_TEXT_ONLY = /^(o1-mini|o1-preview|o3-mini)(?![a-z0-9])/;
// claude-3-5-sonnet, claude-3-opus, claude-sonnet-4, claude-opus-4-1, claude-haiku-4-5…: Claude 3 and later read images.
const ANTHROPIC_GENERATION = /^claude-(?:(?:opus|sonnet|haiku)-)?(\d+)/;

/** Splits `<provider>/<model>` (an openai-compatible id keeps its provider name in `model`). */
function splitModelId(modelId: string): { provider: string; name: string } {
  const slash = modelId.indexOf("/");
  return slash < 0 ? { provider: "", name: modelId } : { provider: modelId.slice(0, slash), name: modelId.slice(slash + 1) };
}

function hasVision(modelId: string, options: CatalogOptions): boolean {
  const { provider, name } = splitModelId(modelId);
  switch (provider) {
    case "demo":
      return modelId === DEMO_VISION_MODEL;
    case "openai":
      return OPENAI_VISION.test(name) && !OPENAI_TEXT_ONLY.test(name);
    case "anthropic": {
      const generation = ANTHROPIC_GENERATION.exec(name)?.[1];
      return generation !== undefined && Number(generation) >= 3;
    }
    case "openai-compatible": {
      const listed = options.openaiCompatibleVision ?? [];
      if (listed === "*") return true;
      // `<provider>/<model>`: the list names either the model or the provider and the model.
      const model = name.slice(name.indexOf("/") + 1);
      return listed.includes(model) || listed.includes(name);
    }
    default:
      return false;
  }
}

/** What a model id can do (an unknown provider or model: nothing beyond text). `inherit` reads as the fallback model. */
export function modelCapabilities(modelId: string, options: CatalogOptions = {}): ModelCapabilities {
  return { vision: hasVision(effectiveModel(modelId, null), options) };
}

/** Whether a model reads images. */
export function supportsVision(modelId: string, options: CatalogOptions = {}): boolean {
  return modelCapabilities(modelId, options).vision;
}

/** One sentence naming the models that read images, for errors and hints. */
export function visionModelsSentence(options: CatalogOptions = {}): string {
  const families = [
    DEMO_VISION_MODEL,
    "openai/gpt-4o, gpt-4.1, gpt-5, o1, o3 and o4 models (not o1-mini, o1-preview or o3-mini)",
    "anthropic/claude-3 and later (claude-sonnet-4, claude-opus-4, …)",
  ];
  const compatible = options.openaiCompatibleVision ?? [];
  if (compatible === "*") families.push("every openai-compatible model");
  else if (compatible.length) families.push(`openai-compatible models ${compatible.join(", ")}`);
  return `Models that read images: ${families.join("; ")}.`;
}
