// What a connected server declared it can do, in a line on its card: each feature it has, with
// whether it announces changes to its lists and takes resource subscriptions.
import type { McpServerCapabilities } from '@epoch-agent/runtime';

export function Capabilities({ capabilities }: { readonly capabilities: McpServerCapabilities }) {
  const { tools, resources, prompts, logging, completions } = capabilities;
  const features = [
    tools && feature('tools', tools.listChanged && 'list changes'),
    resources &&
      feature(
        'resources',
        resources.subscribe && 'subscribe',
        resources.listChanged && 'list changes',
      ),
    prompts && feature('prompts', prompts.listChanged && 'list changes'),
    logging && 'logging',
    completions && 'completions',
  ].filter((part) => typeof part === 'string');
  return (
    <p class="capabilities">
      Capabilities: {features.length === 0 ? 'none declared' : features.join(' · ')}
    </p>
  );
}

/** `resources (subscribe, list changes)`, or `tools` when it has no flag set. */
function feature(name: string, ...flags: readonly (string | false)[]): string {
  const set = flags.filter((flag) => flag !== false);
  return set.length === 0 ? name : `${name} (${set.join(', ')})`;
}
