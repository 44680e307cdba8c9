// Which values of a config count as secrets, and how sure we are (credential or setting): the
// rules redactArgs/redactUrl print by and the text redaction policy searches by.
import { describe, expect, it } from 'vitest';
import {
  argSecrets,
  envSecrets,
  headerSecrets,
  isCredentialName,
  type Secret,
  urlSecrets,
} from '../src/index.js';

const credential = (value: string): Secret => ({ value, kind: 'credential' });
const setting = (value: string): Secret => ({ value, kind: 'setting' });

describe('isCredentialName', () => {
  it.each([
    'API_TOKEN',
    'client_secret',
    'Authorization',
    'x-api-key',
    'OPENAI_KEY',
    'DB_PASS',
    'GITHUB_PAT',
    'X-Auth',
    'password',
    '--private-key',
  ])('%s names a credential', (name) => expect(isCredentialName(name)).toBe(true));

  it.each(['LOG_LEVEL', 'NODE_ENV', 'oauth', 'monkey', 'passthrough', 'keepalive', 'region'])(
    '%s does not',
    (name) => expect(isCredentialName(name)).toBe(false),
  );
});

describe('envSecrets', () => {
  it('takes credential-named values as credentials and other values as settings', () => {
    expect(envSecrets({ API_TOKEN: 'tok', LOG_LEVEL: 'warn' })).toEqual([
      credential('tok'),
      setting('warn'),
    ]);
  });

  it('takes only the credential parts of a URL, and no absolute path at all', () => {
    expect(
      envSecrets({
        DATABASE_URL: 'postgres://app:pw%21secret@db:5432/main?sslmode=require',
        DATA_DIR: '/home/me/data',
        APP_DIR: '/Users/me/Library/Application Support/app',
        WIN_DIR: 'C:\\data',
      }),
    ).toEqual([credential('pw%21secret'), credential('pw!secret'), setting('require')]);
  });
});

describe('headerSecrets', () => {
  it('takes a credential header whole and without its scheme; other headers as settings', () => {
    expect(headerSecrets({ Authorization: 'Bearer tok-1', 'X-Region': 'eu-west-1' })).toEqual([
      credential('Bearer tok-1'),
      credential('tok-1'),
      setting('eu-west-1'),
    ]);
  });
});

describe('urlSecrets', () => {
  it('finds what redactUrl hides: password (else user name), query values, fragment', () => {
    expect(urlSecrets('https://alice:s3cret@h:8443/p?api_key=k1&x=a+b#access_token=t')).toEqual([
      credential('s3cret'),
      credential('k1'),
      setting('a+b'),
      setting('a b'),
      credential('access_token=t'),
    ]);
    expect(urlSecrets('https://tok-1@h/')).toEqual([credential('tok-1')]);
    expect(urlSecrets('https://key-2:@h:80/')).toEqual([credential('key-2')]);
    expect(urlSecrets('https://h:80/path')).toEqual([]);
    expect(urlSecrets('not a url ?a=b')).toEqual([]);
  });
});

describe('argSecrets', () => {
  it('finds option values, NAME=value, Name: value, Bearer tokens and URL parts', () => {
    expect(
      argSecrets([
        'server.js',
        '--api-key=k-1',
        '--token',
        't-2',
        '-e',
        'SECRET_X=s-3',
        '--header',
        'Authorization: Bearer b-4',
        'https://u:p-5@h/',
        '--verbose',
      ]),
    ).toEqual([
      credential('k-1'),
      credential('t-2'),
      credential('s-3'),
      credential('Bearer b-4'),
      credential('b-4'),
      credential('p-5'),
    ]);
  });
});
