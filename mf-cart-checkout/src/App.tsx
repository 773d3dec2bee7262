import { BrowserRouter, Link, Route, Routes } from 'react-router-dom';
import Cart from './pages/cart';
import Payment from './pages/payment';

/**
 * Standalone development only (`npm run dev -w mf-cart-checkout`): this remote's pages on their own
 * routes, without the shell's header, footer and guards. In the shop, the shell loads the
 * exposed pages.
 */
export function App() {
  return (
    <BrowserRouter>
      <nav aria-label="Boat shop cart and checkout pages">
        <Link to="/cart">Cart</Link>
      </nav>
      <main>
        <Routes>
          <Route path="/cart" element={<Cart />} />
          <Route path="/payment" element={<Payment />} />
        </Routes>
      </main>
    </BrowserRouter>
  );
}
