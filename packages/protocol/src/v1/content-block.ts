/**
 * A v2 content block as v1 reads it: the five block types v1 knows, with the fields v1 has (a
 * resource link's `icons` is v2's only), and annotation audiences v1 knows. An extension block
 * (`_`-prefixed type) has no v1 form: v1's block union is closed.
 */
import type * as V2 from "../generated/types.js";
import type * as V1 from "../generated/v1/types.js";
import { audienceToV1 } from "./closed-values.js";

function annotationsToV1(annotations: V2.Annotations | null): V1.Annotations | null {
  if (annotations === null) return null;
  const { audience, ...rest } = annotations;
  return Array.isArray(audience) ? { ...rest, audience: audienceToV1(audience) } : (annotations as V1.Annotations);
}

/** The block in v1 form, or undefined when v1 cannot carry it. */
export function contentBlockToV1(block: V2.ContentBlock): V1.ContentBlock | undefined {
  switch (block.type) {
    case "text":
    case "image":
    case "audio":
    case "resource": {
      const typed = block as Extract<V2.ContentBlock, { type: "text" | "image" | "audio" | "resource" }>;
      if (typed.annotations === undefined) return typed as V1.ContentBlock;
      return { ...typed, annotations: annotationsToV1(typed.annotations) } as V1.ContentBlock;
    }
    case "resource_link": {
      const { icons: _icons, annotations, ...link } = block as Extract<V2.ContentBlock, { type: "resource_link" }>;
      return annotations === undefined ? link : { ...link, annotations: annotationsToV1(annotations) };
    }
    default:
      return undefined;
  }
}
