// An error's message for a sentence of ours: whatever was thrown, an Error or not.

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
