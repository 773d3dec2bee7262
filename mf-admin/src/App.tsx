import { BrowserRouter, Link, Route, Routes } from 'react-router-dom';
import Admin from './pages/admin';
import AdminOrder from './pages/admin-order';
import AdminOrders from './pages/admin-orders';

/**
 * Standalone development only (`npm run dev -w mf-admin`): this remote's pages on their own
 * routes, without the shell's header, footer and guards. In the shop, the shell loads the
 * exposed pages.
 */
export function App() {
  return (
    <BrowserRouter>
      <nav aria-label="Boat shop admin pages">
        <Link to="/admin">Products</Link> <Link to="/admin/orders">Orders</Link>
      </nav>
      <main>
        <Routes>
          <Route path="/admin" element={<Admin />} />
          <Route path="/admin/orders" element={<AdminOrders />} />
          <Route path="/admin/orders/:orderID" element={<AdminOrder />} />
        </Routes>
      </main>
    </BrowserRouter>
  );
}
