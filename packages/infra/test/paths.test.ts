// Where epoch keeps its files: EPOCH_HOME (default ~/.epoch, relative paths resolved) and
// EPOCH_PROFILE (profiles/<name>, a name that cannot leave the home). The default is checked against
// a HOME of our own, so the real home directory is never what the test looks at.
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { epochHome, isInfraError, mcpConfigPath, profileDir } from '../src/index.js';

let fakeHome: string;
let realHome: string | undefined;

beforeEach(async () => {
  fakeHome = await mkdtemp(join(tmpdir(), 'epoch-paths-home-'));
  realHome = process.env.HOME;
  // os.homedir() reads $HOME on POSIX.
  process.env.HOME = fakeHome;
});

afterEach(async () => {
  if (realHome === undefined) delete process.env.HOME;
  else process.env.HOME = realHome;
  await rm(fakeHome, { recursive: true, force: true });
});

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('epochHome', () => {
  it('is ~/.epoch when EPOCH_HOME is unset or empty', () => {
    expect(homedir()).toBe(fakeHome);
    expect(epochHome({})).toBe(join(fakeHome, '.epoch'));
    expect(epochHome({ EPOCH_HOME: '' })).toBe(join(fakeHome, '.epoch'));
  });

  it('is EPOCH_HOME when set, a relative one resolved against the working directory', () => {
    expect(epochHome({ EPOCH_HOME: '/srv/epoch' })).toBe('/srv/epoch');
    expect(epochHome({ EPOCH_HOME: '/srv/epoch/' })).toBe('/srv/epoch');
    expect(epochHome({ EPOCH_HOME: 'rel/home' })).toBe(join(process.cwd(), 'rel', 'home'));
    expect(epochHome({ EPOCH_HOME: '../up' })).toBe(resolve(process.cwd(), '..', 'up'));
  });

  it('reads process.env when no env is given', () => {
    expect(epochHome()).toBe(resolve(process.env.EPOCH_HOME ?? join(fakeHome, '.epoch')));
  });
});

describe('profileDir and mcpConfigPath', () => {
  it('the default profile keeps its files in the home itself', () => {
    const env = { EPOCH_HOME: '/srv/epoch' };
    expect(profileDir(env)).toBe('/srv/epoch');
    expect(mcpConfigPath(env)).toBe('/srv/epoch/mcp.json');
    expect(mcpConfigPath({})).toBe(join(fakeHome, '.epoch', 'mcp.json'));
  });

  it('an empty EPOCH_PROFILE is the default profile', () => {
    expect(mcpConfigPath({ EPOCH_HOME: '/srv/epoch', EPOCH_PROFILE: '' })).toBe(
      '/srv/epoch/mcp.json',
    );
  });

  it('EPOCH_PROFILE selects profiles/<name> under the home', () => {
    const env = { EPOCH_HOME: 'rel', EPOCH_PROFILE: 'work_2-b' };
    expect(profileDir(env)).toBe(join(process.cwd(), 'rel', 'profiles', 'work_2-b'));
    expect(mcpConfigPath(env)).toBe(join(process.cwd(), 'rel', 'profiles', 'work_2-b', 'mcp.json'));
    expect(mcpConfigPath({ EPOCH_PROFILE: 'work' })).toBe(
      join(fakeHome, '.epoch', 'profiles', 'work', 'mcp.json'),
    );
  });

  it.each(['../x', '..', '.', 'a/b', '/abs', 'a\\b', 'a b', 'work\n', 'é'])(
    'refuses the profile name %j with InfraError invalid_profile',
    (profile) => {
      const env = { EPOCH_HOME: '/srv/epoch', EPOCH_PROFILE: profile };
      for (const run of [() => profileDir(env), () => mcpConfigPath(env)]) {
        const error = thrown(run);
        expect(isInfraError(error, 'invalid_profile')).toBe(true);
        // The message names the variable and says what a valid name looks like.
        expect((error as Error).message).toContain('EPOCH_PROFILE');
        expect((error as Error).message).toContain('letters, digits');
      }
    },
  );
});
