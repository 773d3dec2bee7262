// The load balancer of `npm run start:cluster`: deploy/proxy.conf itself (the deployment's
// configuration), with the compose service names replaced by upstream groups of loopback
// replicas, inside a minimal nginx main configuration that runs unprivileged from a work folder.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTE_FOLDERS as REMOTES } from '@boatshop/remotes';

const DEPLOY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'deploy');

export { REMOTES };

/**
 * @param {{ workDir: string, listenPort: number, apiPorts: number[], shellPorts: number[], remotePorts: Record<string, number> }} options
 * @returns {string} the path of nginx.conf in workDir
 */
export function writeClusterNginxConfig({ workDir, listenPort, apiPorts, shellPorts, remotePorts }) {
  for (const dir of ['snippets', 'logs', 'temp']) mkdirSync(join(workDir, dir), { recursive: true });
  copyFileSync(join(DEPLOY, 'security-headers.conf'), join(workDir, 'snippets', 'boatshop-security-headers.conf'));
  copyFileSync(join(DEPLOY, 'hide-upstream-headers.conf'), join(workDir, 'snippets', 'boatshop-hide-upstream-headers.conf'));

  const replace = (text, from, to) => {
    if (!text.includes(from))
      throw new Error(`deploy/proxy.conf no longer contains ${JSON.stringify(from)}: update scripts/cluster/nginx.mjs`);
    return text.split(from).join(to);
  };
  let site = readFileSync(join(DEPLOY, 'proxy.conf'), 'utf8');
  // No container DNS on a host: the upstream groups below are static.
  site = site.replace(/^resolver .*$/m, '');
  site = replace(site, 'listen 80;', `listen 127.0.0.1:${listenPort};`);
  site = replace(site, 'http://api:4000', 'http://boatshop_api');
  site = replace(site, 'http://shell:3000', 'http://boatshop_shell');
  // The shell's server serves /releases/ itself when a registry is mounted.
  site = replace(site, 'http://releases:80', 'http://boatshop_shell');
  site = replace(site, 'http://$remote_host:80', 'http://$remote_host');
  site = replace(site, '/etc/nginx/snippets/', `${join(workDir, 'snippets')}/`);

  const upstream = (name, ports, balance) =>
    `  upstream ${name} {\n${balance ? `    ${balance};\n` : ''}${ports
      .map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`)
      .join('\n')}\n    keepalive 16;\n  }\n`;
  const conf = `# Written by scripts/cluster/nginx.mjs for npm run start:cluster; deploy/proxy.conf is the source.
worker_processes 1;
pid ${join(workDir, 'nginx.pid')};
error_log ${join(workDir, 'logs', 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${join(workDir, 'temp')};
  proxy_temp_path ${join(workDir, 'temp')};
  fastcgi_temp_path ${join(workDir, 'temp')};
  uwsgi_temp_path ${join(workDir, 'temp')};
  scgi_temp_path ${join(workDir, 'temp')};
  # Keep-alive to the replicas needs HTTP/1.1 and an empty Connection header.
  proxy_http_version 1.1;
  proxy_set_header Connection "";
${upstream('boatshop_api', apiPorts, 'least_conn')}${upstream('boatshop_shell', shellPorts, 'least_conn')}${REMOTES.map((remote) =>
    upstream(remote, [remotePorts[remote]]),
  ).join('')}
${site}
}
`;
  const path = join(workDir, 'nginx.conf');
  writeFileSync(path, conf);
  return path;
}
