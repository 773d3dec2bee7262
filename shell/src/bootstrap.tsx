import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { checkSession } from '@boatshop/state';
import { App } from './App';

// On start the shop checks whether a session exists; guards wait for the answer.
void checkSession();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
