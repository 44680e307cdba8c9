// The table of `epoch` commands: what each one is called, takes and says in its help, which is all
// that parsing a command line and printing help need. A command's code (and what it imports: the
// runtime, the connectors page) is loaded only when that command runs, so `epoch --help` and
// `epoch mcp list` do not load what `epoch web` or `epoch mcp call` need.
import type { Command } from '../command.js';

// enable and disable are one edit in two directions: the same options and rules.
const CHOICE_OPTIONS: Command['options'] = {
  tool: {
    type: 'string',
    multiple: true,
    value: 'TOOL',
    help: 'one tool, by its name on the server (as "epoch mcp tools" lists it); repeat for more',
  },
  json: { type: 'boolean', help: 'print { file, line, changes, changed } as JSON' },
};
/** `--verbose` of `call` and `status`: the servers' log messages on stderr (server-logs.ts). */
const VERBOSE_OPTION = {
  type: 'boolean',
  help: "print the servers' log messages on stderr as they come (log_level says from which level)",
} as const;

/** `--yes` of the commands that start servers: what a script passes instead of answering. */
const YES_OPTION: Command['options'][string] = {
  type: 'boolean',
  help: 'approve every server it starts that needs approval, without asking (for scripts; see "epoch mcp approve --help")',
};
/** `--root DIR` of the commands that run servers for a person (root-dirs.ts reads it). */
const ROOT_OPTION: Command['options'][string] = {
  type: 'string',
  multiple: true,
  value: 'DIR',
  help: 'a directory servers may work in (MCP roots), relative to the current one; repeat for more',
};

/** `--scope` of the commands that write servers (scope.ts reads it). */
const SCOPE_OPTION: Command['options'][string] = {
  type: 'string',
  short: 's',
  value: 'SCOPE',
  help: "user (default): your mcp.json; project: the project's .epoch/mcp.json",
};

const CHOICE_DETAILS = `Edits your mcp.json as text: "enabled" of the server's entry, or its "exclude_tools" and
"include_tools" lists; every other byte stays, and disable then enable gives back the file as it was.
A plugin's server (<plugin>__<server>) is turned off under "overrides" in your file; the plugin's own
file is never touched. Nothing is started to make the edit. A tool turned off by a pattern of
"exclude_tools" ("write_*") is turned on by editing that pattern by hand.

Examples:
  epoch mcp disable github
  epoch mcp disable github --tool delete_repo --tool fork_repo
  epoch mcp enable weather__forecast`;

export const COMMANDS: readonly Command[] = [
  {
    words: 'mcp list',
    synopsis: '[--json]',
    summary: 'show the MCP servers of your mcp.json and installed plugins, and every problem found',
    details: `Reads the files, never connects (see "epoch mcp status" for that). Exit code 1 when a file has errors.
Env and header values are never shown; credentials in URLs and arguments are redacted.`,
    options: { json: { type: 'boolean', help: 'print { file, servers, diagnostics } as JSON' } },
    readsConfig: true,
    load: async () => (await import('./mcp-list.js')).run,
  },
  {
    words: 'mcp get',
    synopsis: '<name> [--json]',
    summary: 'show every setting of one server, its defaults, and the line each comes from',
    details: `Values are what epoch uses: written in the file, or the default. Env and header values,
credential-looking arguments and URL credentials are shown as <redacted> or ***.`,
    options: { json: { type: 'boolean', help: 'print { name, source, at, fields } as JSON' } },
    readsConfig: true,
    load: async () => (await import('./mcp-get.js')).run,
  },
  {
    words: 'mcp add',
    synopsis: `<name> [-s user|project] [-e KEY=VALUE]... [--transport stdio] [--] <command> [args...]
       epoch mcp add <name> [-s user|project] --transport http|sse [--header 'K: V']... <url>`,
    summary: 'add a server to your mcp.json, then check that it connects',
    details: `The name: letters, digits, "_" and "-" only (it becomes part of tool names sent to model providers).
The server's command word and everything after it are the server's command and arguments, exactly
as given ("-y" and "--port" included): epoch's own options go before the command word. "--" before
the command is allowed, and needed only when the command word itself starts with "-".
-e takes one KEY=VALUE; repeat it for each variable (-e A=1 -e B=2).
The entry is inserted into the file as text: your comments, order and formatting stay as they were.
Timeouts, oauth, cwd and the other settings are written in the file by hand; the output names them.
--scope project writes the project's .epoch/mcp.json instead (the one here or in a parent directory
up to the repository's root, else a new one here), for everyone who works on it: keep secrets out of
it (\${VAR}). A name one of your own servers has is refused there: yours would win.

Examples:
  epoch mcp add files npx -y @modelcontextprotocol/server-filesystem /tmp
  epoch mcp add --scope project docs npx -y @modelcontextprotocol/server-filesystem ./docs
  epoch mcp add github -e GITHUB_TOKEN=ghp_xxx -- npx -y @modelcontextprotocol/server-github
  epoch mcp add remote --transport http --header 'Authorization: Bearer xxx' https://mcp.example.com/mcp`,
    options: {
      transport: {
        type: 'string',
        short: 't',
        value: 'KIND',
        help: 'stdio (default), http or sse',
      },
      env: {
        type: 'string',
        short: 'e',
        multiple: true,
        value: 'KEY=VALUE',
        help: 'an environment variable of a stdio server; repeat for more',
      },
      header: {
        type: 'string',
        short: 'H',
        multiple: true,
        value: "'K: V'",
        help: 'a request header of a remote server; repeat for more',
      },
      scope: SCOPE_OPTION,
      json: { type: 'boolean', help: 'print { file, created, setByHand, status } as JSON' },
    },
    serverCommandAt: 1,
    readsConfig: true,
    load: async () => (await import('./mcp-add.js')).run,
  },
  {
    words: 'mcp add-json',
    synopsis: "<name> '<json>' [-s user|project] [--json]",
    summary: 'add a server to your mcp.json from one JSON entry (every field allowed)',
    details: `The JSON is one entry of "servers", as you would write it in the file, e.g.
  epoch mcp add-json remote '{"type": "http", "url": "https://mcp.example.com/mcp", "timeout": 60}'
It is checked like the file: an unknown field, a wrong type or a missing command is an error, and
nothing is written. The entry is inserted as text; every other byte of the file stays as it was.
--scope project writes the project's .epoch/mcp.json instead (see "epoch mcp add --help").`,
    options: {
      scope: SCOPE_OPTION,
      json: { type: 'boolean', help: 'print { file, created, setByHand, status } as JSON' },
    },
    readsConfig: true,
    load: async () => (await import('./mcp-add-json.js')).run,
  },
  {
    words: 'mcp import',
    synopsis:
      '[--from CLIENT] [--file PATH] [--project DIR] [-s user|project] [--dry-run] [--rename] [--json]',
    summary:
      'add the MCP servers of your other clients (Claude, Cursor, VS Code, …) to your mcp.json',
    details: `Reads the MCP servers of Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Gemini CLI and
Codex on this machine (user files, and the project's files of the project directory), translates each
field by field and adds the new ones to your mcp.json in one text edit; every other byte stays.
Under each server is what it runs: its whole command line or URL, its env and header names, and a
warning when starting it downloads code and runs it (npx -y, uvx, docker run, ...); importing
approves what is written (see "epoch mcp approve --help"), so read it, with --dry-run first. A server
that runs exactly what one of yours runs (imported before, under any name) is not imported again.
Each server's notes say what did not map (approvals, trust, OAuth client settings, an editor's own
variables, ...). A name your file (or a plugin) already has, case aside, is skipped unless --rename
adds it as <name>-<client>. Secrets the other client reads from inputs or variables become \${VAR}
references, named in the notes; env and header values are never printed.
With --scope project, only the project's own files are read (.mcp.json, .cursor/mcp.json,
.vscode/mcp.json, .gemini/settings.json) and their servers go into the project's .epoch/mcp.json;
a name your own mcp.json has is skipped there too.
Exit code 1 when a file could not be read or a server was refused; skipped names are not failures.

Examples:
  epoch mcp import --dry-run
  epoch mcp import --from claude-desktop
  epoch mcp import --file ~/old/claude_desktop_config.json --rename
  epoch mcp import --scope project --dry-run`,
    options: {
      from: {
        type: 'string',
        value: 'CLIENT',
        help: 'only this client: claude-desktop, claude-code, cursor, vscode, windsurf, gemini or codex',
      },
      file: {
        type: 'string',
        value: 'PATH',
        help: 'read this file (its client recognized from its name and content, or given by --from)',
      },
      project: {
        type: 'string',
        value: 'DIR',
        help: 'the project whose files (.mcp.json, .cursor/, .vscode/, .gemini/) are read (default: the current directory)',
      },
      scope: SCOPE_OPTION,
      'dry-run': {
        type: 'boolean',
        help: 'show what would be added, with what each runs and its entry, and write nothing',
      },
      rename: {
        type: 'boolean',
        help: 'add a server whose name is taken as <name>-<client> instead of skipping it',
      },
      json: { type: 'boolean', help: 'print { file, created, written, files, servers } as JSON' },
    },
    readsConfig: true,
    load: async () => (await import('./mcp-import.js')).run,
  },
  {
    words: 'mcp remove',
    synopsis: '<name>',
    summary: 'take a server out of your mcp.json, leaving the rest of the file as it was',
    options: {},
    readsConfig: true,
    load: async () => (await import('./mcp-remove.js')).run,
  },
  {
    words: 'mcp disable',
    synopsis: '<name> [--tool TOOL]... [--json]',
    summary: 'turn a server off (never started), or some of its tools (not offered to the model)',
    details: CHOICE_DETAILS,
    options: CHOICE_OPTIONS,
    readsConfig: true,
    load: async () => (await import('./mcp-choice.js')).choose(false),
  },
  {
    words: 'mcp enable',
    synopsis: '<name> [--tool TOOL]... [--json]',
    summary: 'turn a server, or some of its tools, back on',
    details: CHOICE_DETAILS,
    options: CHOICE_OPTIONS,
    readsConfig: true,
    load: async () => (await import('./mcp-choice.js')).choose(true),
  },
  {
    words: 'mcp status',
    synopsis: '[--yes] [--json] [--verbose]',
    summary: 'connect to every server, show its state and the tools the model gets from it',
    details: `Every server starts the way the agent starts it, then is closed with its whole process tree.
On a terminal, a server that needs approval is shown with what it runs, and you are asked ([y/N]);
in a pipe or with --json nothing is asked: it stays unstarted (state needsApproval).
Tools that changed or appeared since a server's tools were approved are withheld from the model:
counted in TOOLS, with the command that shows them ("epoch mcp diff <name>"); toolsWithheld in --json.
Exit code 0 when every server connected and the files have no errors.`,
    options: {
      yes: YES_OPTION,
      json: { type: 'boolean', help: 'print { file, servers, diagnostics } as JSON' },
      verbose: VERBOSE_OPTION,
    },
    readsConfig: true,
    load: async () => (await import('./mcp-status.js')).run,
  },
  {
    words: 'mcp tools',
    synopsis: '[<name>] [--yes] [--json]',
    summary: 'show the tools the model gets: names, annotations, parameters, context cost',
    details: `Every server starts, as in the agent (tool names depend on all of them: two servers can want
the same name). With <name>, only that server starts, as for "epoch mcp call"; a name another
server's tool would take from it is then not seen. Tokens are about characters / 4 of the
definitions sent with every request. A server that needs approval is asked about as by "epoch mcp status".
Tools withheld since they changed are not listed: their count is, under the server's tools, with the
command that shows them ("epoch mcp diff <name>").`,
    options: {
      yes: YES_OPTION,
      json: { type: 'boolean', help: 'print { servers: [{ ..., tools }] } as JSON' },
    },
    readsConfig: true,
    load: async () => (await import('./mcp-tools.js')).run,
  },
  {
    words: 'mcp call',
    synopsis:
      "<name> <tool> [--arg key=value]... [--args '<json>'] [--root DIR]... [--yes] [--json] [--verbose]",
    summary: 'run one tool of a server and print its result',
    details: `<tool> is the tool's name on the server (echo) or the name the model sees (mcp__everything__echo).
--arg values are read as the tool's input schema types them; --args gives them all as one JSON object.
A server that needs approval is asked about on a terminal, as by "epoch mcp status".
A question the server asks during the call is put to you on a terminal, a field at a time (a
secret typed unseen; Ctrl-C cancels it and the call); in a pipe or with --json nobody is asked.
A tool withheld since it changed (see "epoch mcp diff") is not called.
Exit codes: 0 ok, 1 the tool reported an error, 2 wrong command line (or a server or tool turned
off or not approved), 3 the server needs
"epoch mcp login", 4 the server cannot be reached, 130 interrupted (the call is cancelled on the server).`,
    options: {
      arg: {
        type: 'string',
        multiple: true,
        value: 'key=value',
        help: 'one argument; repeat for more',
      },
      args: { type: 'string', value: 'JSON', help: 'every argument as one JSON object' },
      json: {
        type: 'boolean',
        help: 'print the result as JSON; errors are one JSON object on stderr',
      },
      root: ROOT_OPTION,
      yes: YES_OPTION,
      verbose: VERBOSE_OPTION,
    },
    readsConfig: true,
    load: async () => (await import('./mcp-call.js')).run,
  },
  {
    words: 'mcp tasks',
    synopsis: '[list | show <id> | cancel <id>] [--json]',
    summary:
      'the tasks of tools that run as tasks: list them, follow one to its result, cancel one',
    details: `A tool that runs as a task (a server's long call it answers with a task) is recorded in
$EPOCH_HOME/tasks while and after it runs, so a task outlives the process that started it.
list (the default) reads the records and starts nothing; show <id> starts the task's server and
follows the task to its result, its progress drawn as "epoch mcp call" draws it (Ctrl-C cancels the
task on the server); cancel <id> asks the server to cancel it. <id>: the task's id, or any unique
start of it. A task of a stdio server ends with the process that started it (its server does too).
Exit codes: 0 ok, 1 the task's tool reported an error or the task failed, 2 wrong command line
or no such task, 3 the server needs "epoch mcp login", 4 it cannot be reached.`,
    options: {
      json: { type: 'boolean', help: 'print the records, the result or the answer as JSON' },
    },
    readsConfig: true,
    load: async () => (await import('./mcp-tasks.js')).run,
  },
  {
    words: 'mcp reconnect',
    synopsis: '<name> [--json]',
    summary: 'connect one server afresh, its cached tool list forgotten, and show how it went',
    details: `A server that does not connect is tried again a few times; each failed try is a line on stderr.
Exit codes: 0 connected, 3 the server needs "epoch mcp login", 4 it cannot be reached.`,
    options: { json: { type: 'boolean', help: 'print its status as JSON' } },
    readsConfig: true,
    load: async () => (await import('./mcp-reconnect.js')).run,
  },
  {
    words: 'mcp diff',
    synopsis: '<name> [--json]',
    summary:
      'show each tool of a server withheld since it changed: its definition before and after',
    details: `Starts only that server, and compares the tools it lists now with the definitions approved
(see the README's "Pinned tools"). Each tool that changed or is new is withheld: the model is not
offered it until it is approved. Each is shown as "changed tool" or "new tool", then its definition
(name, title, description, input and output schema, annotations) line by line: "-" as approved, "+"
as the server lists it now. Approve them with "epoch mcp approve <name>" (--tool for single ones).
Exit codes: 0 shown (or nothing withheld), 2 unknown server or not approved to start, 3 needs
"epoch mcp login", 4 the server cannot be reached.`,
    options: {
      json: {
        type: 'boolean',
        help: 'print { server, withheld: [{ name, reason, before, after, lines }] } as JSON',
      },
    },
    readsConfig: true,
    load: async () => (await import('./mcp-diff.js')).run,
  },
  {
    words: 'mcp approve',
    synopsis: '<name> [--tool TOOL]... [--yes] [--json]',
    summary: 'approve what a server runs so that it starts, or its tools that changed',
    details: `Shows the server's whole command line (variables expanded, secrets redacted) or URL, the
directory it runs in and the names of its env variables and headers, says when starting it downloads
code and runs it (npx -y, uvx, pipx run, bunx, docker run, a script from a URL), asks [y/N], then
starts it. The approval is of that launch: a changed command, argument, URL or env value asks again.
Servers of the project's .epoch/mcp.json and of plugins start only once approved; the host's, and the
entries of your own mcp.json, need none (see the README's "Trust" section).
Of a server that runs, it approves the tools withheld since they changed or appeared (see "epoch mcp
diff"): it names them, asks [y/N], and the model is offered them from then on; --tool approves
single ones.
In a pipe nothing is asked: run it on a terminal, or pass --yes (for scripts, which then approve what
they did not see).
Exit codes: 0 approved (and how it connects) or nothing to approve, 1 not approved, 2 unknown server
or a --tool that is not withheld.`,
    options: {
      tool: {
        type: 'string',
        multiple: true,
        value: 'TOOL',
        help: 'approve only this withheld tool, by its name on the server; repeat for more',
      },
      yes: { type: 'boolean', help: 'approve without asking (scripts)' },
      json: {
        type: 'boolean',
        help: 'print { server, launch, approved, status } (of tools: { server, tools, approved, status }) as JSON',
      },
    },
    readsConfig: true,
    load: async () => (await import('./mcp-approve.js')).approve,
  },
  {
    words: 'mcp revoke',
    synopsis: '<name> [--json]',
    summary: 'take back the approvals of a server: it no longer starts until approved again',
    details: `Forgets every approved form of the server. A server of the project or of a plugin then stays
unstarted until "epoch mcp approve <name>"; the host's and your own mcp.json's are trusted and still
start (take one out with "epoch mcp remove", or turn it off with "epoch mcp disable"). Its tools' approved
definitions go too: the list it gives when it next runs is pinned as it is. Nothing is started.`,
    options: { json: { type: 'boolean', help: 'print { server, needsApproval } as JSON' } },
    readsConfig: true,
    load: async () => (await import('./mcp-approve.js')).revoke,
  },
  {
    words: 'mcp login',
    synopsis: '<name>',
    summary: 'log in to a remote server with OAuth, in a browser',
    options: {},
    readsConfig: true,
    load: async () => (await import('./mcp-login.js')).run,
  },
  {
    words: 'mcp logout',
    synopsis: '<name>',
    summary: "delete a remote server's stored OAuth login and revoke its tokens",
    options: {},
    readsConfig: true,
    load: async () => (await import('./mcp-logout.js')).run,
  },
  {
    words: 'web',
    synopsis: '[--port N] [--open] [--root DIR]...',
    summary: 'serve the connectors page on 127.0.0.1 until Ctrl-C',
    details: `The URL is printed at once; every server starts as in the agent, behind it. The page shows
them by source, live (one still connecting, and for how long), with their tools, and adds, removes,
reconnects and logs in. Only 127.0.0.1 is served, and only with the key in the printed URL.
Ctrl-C stops the page and every server, connected or still connecting (exit code 130).`,
    options: {
      port: {
        type: 'string',
        short: 'p',
        value: 'N',
        help: 'the port on 127.0.0.1 (default: a free one)',
      },
      open: { type: 'boolean', help: 'open the page in a browser' },
      root: ROOT_OPTION,
    },
    readsConfig: true,
    load: async () => (await import('./web.js')).run,
  },
];
