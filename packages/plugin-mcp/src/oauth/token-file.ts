// A login file's format (token-store.ts), both ways: the text a login is written as, and the shape
// a file is checked for when read: our own fields only (the metadata was validated by the SDK when
// it was discovered). A module of its own, loaded when a login file is first written or read, so
// that the plugin's import does not load the schema library.
import { z } from 'zod';

/** Of the login files; one of another version is not read. */
const FORMAT_VERSION = 1;

/** The text of a login's file: the login, stamped with the format's version. */
export function loginFileText(login: object): string {
  return `${JSON.stringify({ version: FORMAT_VERSION, ...login }, null, 2)}\n`;
}

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
