#!/usr/bin/env node
// The `epoch` on PATH (node_modules/.bin/epoch, `npm link`, `npm install -g ./packages/cli`). A
// plain file that exists before the build, so npm links it at install time; the command itself is
// the TypeScript build's output.
try {
  await import('../dist/bin.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/bin.js')) {
    throw error;
  }
  process.stderr.write(
    'epoch is not built yet: run "npm run build" in the epoch-agent repository, then try again.\n',
  );
  process.exitCode = 1;
}
