// The JSON of a server's resources and prompts as the page reads them (server-content-routes.ts):
// types only, imported by the page as well. Everything here is what the server said, bounded: a
// list is cut at a number of entries, a text at a number of characters, and a binary is sent as
// its size and type (an image small enough, as a data: URL), so one server cannot make the page
// or its answers huge.

/** GET /api/mcp/:name/resources */
export interface ResourceList {
  readonly resources: readonly ResourceView[];
  readonly templates: readonly ResourceTemplateView[];
  /** How many more resources and templates the server listed than are here. */
  readonly leftOff: number;
}

export interface ResourceView {
  readonly name: string;
  readonly title?: string;
  readonly uri: string;
  readonly mimeType?: string;
  readonly description?: string;
}

export interface ResourceTemplateView {
  readonly name: string;
  readonly title?: string;
  readonly uriTemplate: string;
  readonly mimeType?: string;
  readonly description?: string;
}

/** GET /api/mcp/:name/resources/read?uri=… */
export interface ResourceRead {
  readonly contents: readonly ContentView[];
  /** How many more contents the server sent than are here. */
  readonly leftOff: number;
}

/** One piece of what a server sent: a resource's contents, or a prompt message's content. */
export type ContentView =
  | {
      readonly kind: 'text';
      readonly uri?: string;
      readonly mimeType?: string;
      /** Cut to a bound, with a note of how much was left out. */
      readonly text: string;
    }
  | {
      readonly kind: 'image';
      readonly uri?: string;
      readonly mimeType: string;
      readonly bytes: number;
      /** `data:image/…;base64,…`: a raster image within the bound, shown as an image. */
      readonly dataUrl: string;
    }
  | {
      /** Binary contents shown as their size and type only (audio, a large image, a blob). */
      readonly kind: 'binary';
      readonly uri?: string;
      readonly mimeType?: string;
      readonly bytes: number;
    }
  | {
      /** A prompt message pointing at a resource (`resource_link`). */
      readonly kind: 'link';
      readonly uri: string;
      readonly name: string;
      readonly mimeType?: string;
    }
  | {
      /** A content type the page does not know: named, not shown. */
      readonly kind: 'other';
      readonly type: string;
    };

/** GET /api/mcp/:name/prompts */
export interface PromptList {
  readonly prompts: readonly PromptView[];
  /** How many more prompts the server listed than are here. */
  readonly leftOff: number;
}

export interface PromptView {
  /** The server's own name for it: what POST …/prompts/:prompt takes. */
  readonly name: string;
  /** `mcp__<server>__<prompt>`: the name a host shows it under, as tools are named. */
  readonly offeredAs: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly PromptArgumentView[];
}

export interface PromptArgumentView {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
}

/** POST /api/mcp/:name/prompts/:prompt: the prompt's arguments, by name. */
export interface PromptRequest {
  readonly arguments: Readonly<Record<string, string>>;
}

/** 200 from POST /api/mcp/:name/prompts/:prompt: the messages the prompt makes. */
export interface PromptGot {
  readonly description?: string;
  readonly messages: readonly PromptMessageView[];
  /** How many more messages the server sent than are here. */
  readonly leftOff: number;
}

export interface PromptMessageView {
  readonly role: string;
  readonly content: ContentView;
}
