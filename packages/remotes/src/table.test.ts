import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FRONT_ENDS, MF_GLOBALS, REMOTES, SERVICE_PORTS, findRemote, portOf } from './index';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const rootWorkspaces = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;

describe('the table of remotes', () => {
  it.each(REMOTES.map((remote) => [remote.folder, remote] as const))(
    '%s is a workspace whose package and MF name follow its folder',
    (folder, remote) => {
      expect(rootWorkspaces).toContain(folder);
      const pkg = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as { name: string };
      expect(pkg.name).toBe(`@boatshop/${folder}`);
      expect(remote.mfName).toBe(folder.replaceAll('-', '_'));
      expect(remote.portEnv).toBe(`${remote.mfName.toUpperCase()}_PORT`);
      expect(remote.urlEnv).toBe(`${remote.mfName.toUpperCase()}_URL`);
      expect(remote.cssPrefix).toMatch(/^[a-z]+-$/);
    },
  );

  it('gives every service its own port, port variable and (for remotes) CSS prefix', () => {
    const services = Object.values(SERVICE_PORTS);
    expect(new Set(services.map((service) => service.port)).size).toBe(services.length);
    expect(new Set(services.map((service) => service.env)).size).toBe(services.length);
    expect(new Set(REMOTES.map((remote) => remote.cssPrefix)).size).toBe(REMOTES.length);
    expect(new Set(Object.values(MF_GLOBALS)).size).toBe(Object.keys(MF_GLOBALS).length);
    expect(FRONT_ENDS).toEqual(['shell', ...REMOTES.map((remote) => remote.folder)]);
  });

  it('finds a remote by folder or MF name, and nothing else', () => {
    expect(findRemote('mf-catalog')?.mfName).toBe('mf_catalog');
    expect(findRemote('mf_admin')?.folder).toBe('mf-admin');
    expect(findRemote('shell')).toBeUndefined();
  });
});

describe('portOf', () => {
  it('takes the variable when set, else the default', () => {
    expect(portOf('mf-account', {})).toBe(3003);
    expect(portOf('mf-account', { MF_ACCOUNT_PORT: '4555' })).toBe(4555);
    expect(portOf('api', { API_PORT: '' })).toBe(4000);
  });

  it('refuses a variable that is not a port number', () => {
    expect(() => portOf('shell', { SHELL_PORT: '70000' })).toThrow('SHELL_PORT=70000 is not a port number');
    expect(() => portOf('shell', { SHELL_PORT: 'abc' })).toThrow('SHELL_PORT=abc is not a port number');
  });
});
