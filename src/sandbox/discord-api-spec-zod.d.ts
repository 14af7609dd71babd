// The package `discord-api-spec` ships its zod schemas as plain JavaScript (`discord-api-spec/zod`, built with
// zod/mini from Discord's OpenAPI document) and its TypeScript types separately. This declares the schemas the fake
// Discord validates request bodies with, each typed as the spec type of the same name, so that
// src/sandbox/discord-spec.ts can have tsc prove each route's schema is the request body the spec gives that route.
declare module 'discord-api-spec/zod' {
  import type { ZodMiniType } from 'zod/mini';
  import type * as Spec from 'discord-api-spec';

  type Schema<T> = ZodMiniType<T>;

  export const ApplicationCommandAutocompleteCallbackRequestSchema: Schema<Spec.ApplicationCommandAutocompleteCallbackRequest>;
  export const CreateMessageInteractionCallbackRequestSchema: Schema<Spec.CreateMessageInteractionCallbackRequest>;
  export const LaunchActivityInteractionCallbackRequestSchema: Schema<Spec.LaunchActivityInteractionCallbackRequest>;
  export const ModalInteractionCallbackRequestSchema: Schema<Spec.ModalInteractionCallbackRequest>;
  export const PongInteractionCallbackRequestSchema: Schema<Spec.PongInteractionCallbackRequest>;
  export const UpdateMessageInteractionCallbackRequestSchema: Schema<Spec.UpdateMessageInteractionCallbackRequest>;

  export const IncomingWebhookRequestPartialSchema: Schema<Spec.IncomingWebhookRequestPartial>;
  export const IncomingWebhookUpdateRequestPartialSchema: Schema<Spec.IncomingWebhookUpdateRequestPartial>;

  export const MessageCreateRequestSchema: Schema<Spec.MessageCreateRequest>;
  export const MessageEditRequestPartialSchema: Schema<Spec.MessageEditRequestPartial>;

  export const ApplicationCommandCreateRequestSchema: Schema<Spec.ApplicationCommandCreateRequest>;
  export const ApplicationCommandUpdateRequestSchema: Schema<Spec.ApplicationCommandUpdateRequest>;
  export const ApplicationCommandPatchRequestPartialSchema: Schema<Spec.ApplicationCommandPatchRequestPartial>;
}
