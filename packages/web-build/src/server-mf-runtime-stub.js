// The Module Federation runtime as a server build sees it (rspack-config.ts, serverPagesConfig):
// a server render never loads a remote through it, so every call says so instead of running
// the browser runtime's code in the rendering server.
function notOnTheServer() {
  throw new Error('Module Federation does not load remotes in a server build');
}

export const loadRemote = notOnTheServer;
export const registerRemotes = notOnTheServer;
