import { BrowserRouter, Link, Route, Routes } from 'react-router-dom';
import Dashboard from './pages/dashboard';
import Login from './pages/login';
import Order from './pages/order';
import PasswordReset from './pages/password-reset';
import PasswordResetConfirm from './pages/password-reset-confirm';
import Registration from './pages/registration';
import VerifyEmail from './pages/verify-email';

/**
 * Standalone development only (`npm run dev -w mf-account`): this remote's pages on their own
 * routes, without the shell's header, footer and guards. In the shop, the shell loads the
 * exposed pages.
 */
export function App() {
  return (
    <BrowserRouter>
      <nav aria-label="Boat shop account pages">
        <Link to="/login">Log in</Link> · <Link to="/registration">Register</Link> · <Link to="/dashboard">Dashboard</Link>
      </nav>
      <main>
        <Routes>
          <Route path="/login" element={<Login />} />
          <Route path="/registration" element={<Registration />} />
          <Route path="/password-reset" element={<PasswordReset />} />
          <Route path="/password-reset/confirm" element={<PasswordResetConfirm />} />
          <Route path="/dashboard" element={<Dashboard />} />
          <Route path="/order/:orderID" element={<Order />} />
          <Route path="/verify-email" element={<VerifyEmail />} />
        </Routes>
      </main>
    </BrowserRouter>
  );
}
