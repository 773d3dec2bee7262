import { StrictMode } from 'react';
import { checkSession } from '@boatshop/state';
import { App } from './App';
import { startApp } from './hydration';

// On start the shop checks whether a session exists; guards wait for the answer.
void checkSession();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The server's render of the page is hydrated when it can be, else the page renders anew.
void startApp(
  root,
  <StrictMode>
    <App />
  </StrictMode>,
);
