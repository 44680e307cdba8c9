// The shape of a login file (token-store.ts) as it is checked when read: our own fields only (the
// metadata was validated by the SDK when it was discovered). A schema of its own module, loaded
// when a login file is first read, so that the plugin's import does not load the schema library.
import { z } from 'zod';
import { FORMAT_VERSION } from './token-store.js';

export const loginFileSchema = z.object({
  version: z.literal(FORMAT_VERSION),
  serverUrl: z.string(),
  issuer: z.string(),
  client: z.looseObject({ client_id: z.string() }),
  tokens: z
    .looseObject({
      access_token: z.string(),
      token_type: z.string(),
      refresh_token: z.string().optional(),
      scope: z.string().optional(),
      expires_at: z.number().optional(),
      obtained_at: z.number(),
    })
    .optional(),
  authorizationServerUrl: z.string(),
  authorizationServerMetadata: z.looseObject({ issuer: z.string() }).optional(),
  resourceMetadata: z.looseObject({ resource: z.string() }).optional(),
  resource: z.string().optional(),
  requiredScope: z.string().optional(),
});
