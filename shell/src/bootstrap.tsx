import { StrictMode } from 'react';
import { checkSession } from '@boatshop/state';
import { App } from './App';
import { startApp } from './hydration';

// On start the shop checks whether a session exists; guards wait for the answer.
void checkSession();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The server's render of the page is hydrated when it can be, else the page renders anew.
// How it started (`hydrated` or `rendered`) is written on #root, for the journeys and a look in devtools.
void startApp(
  root,
  <StrictMode>
    <App />
  </StrictMode>,
).then((outcome) => {
  root.dataset.started = outcome;
});
