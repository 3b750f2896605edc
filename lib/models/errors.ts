// The catalogue's refusals, as the browser and the API read them.
import { AppError } from "../errors";
import { visionModelsSentence, type CatalogOptions } from "./catalog";

/**
 * A message with images for a model that cannot read them (the reference's
 * VisionNotSupportedError): refused before anything is stored or started.
 */
export class VisionNotSupportedError extends AppError {
  constructor(
    readonly model: string,
    options: CatalogOptions = {},
  ) {
    super("vision_not_supported", 422, `The model ${model} cannot read images: choose a model with vision or send the message without images. ${visionModelsSentence(options)}`);
    this.name = "VisionNotSupportedError";
  }
}
