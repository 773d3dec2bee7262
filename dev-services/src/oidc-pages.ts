import { escapeHtml, htmlPage } from './html.js';
import type { DevAccount } from './oidc-accounts.js';

const CHOOSER_CSS = `
  main { max-width: 28rem; }
  .card { background: #fff; border: 1px solid #d0d5db; border-radius: 8px; padding: 1.5rem; }
  ul { list-style: none; margin: 1rem 0; padding: 0; }
  li + li { border-top: 1px solid #e3e6ea; }
  button { font: inherit; cursor: pointer; }
  .account { display: flex; align-items: center; gap: 0.75rem; width: 100%; padding: 0.75rem 0.5rem;
    border: 0; background: none; text-align: left; color: inherit; border-radius: 4px; }
  .account:hover { background: #eef3fd; }
  .avatar { flex: none; display: grid; place-items: center; width: 2.25rem; height: 2.25rem;
    border-radius: 50%; background: #0b57d0; color: #fff; font-weight: 600; }
  .who { display: flex; flex-direction: column; }
  .name { font-weight: 600; }
  .email { color: #4a5058; font-size: 0.875rem; }
  .cancel { padding: 0.5rem 1rem; border: 1px solid #8a9099; border-radius: 4px; background: #fff; color: #1a1d21; }
`;

/** The account chooser shown for `prompt=select_account` and whenever a login is needed. */
export function accountChooserPage(options: { uid: string; clientName: string; accounts: readonly DevAccount[] }): string {
  const uid = encodeURIComponent(options.uid);
  const accounts = options.accounts
    .map(
      (account) => `<li><button class="account" type="submit" name="account" value="${escapeHtml(account.id)}">
  <span class="avatar" aria-hidden="true">${escapeHtml(account.name.charAt(0))}</span>
  <span class="who"><span class="name">${escapeHtml(account.name)}</span><span class="email">${escapeHtml(account.email)}</span></span>
</button></li>`,
    )
    .join('\n');

  return htmlPage(
    'Choose an account',
    `<div class="card">
<h1>Choose an account</h1>
<p class="note">to continue to ${escapeHtml(options.clientName)}</p>
<form method="post" action="/interaction/${uid}/login">
<ul aria-label="Accounts">
${accounts}
</ul>
</form>
<form method="post" action="/interaction/${uid}/abort">
<button class="cancel" type="submit">Cancel</button>
</form>
<p class="note">Local development sign-in: these test accounts need no password.</p>
</div>`,
    CHOOSER_CSS,
  );
}
