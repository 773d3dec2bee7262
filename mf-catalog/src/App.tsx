import { BrowserRouter, Link, Route, Routes } from 'react-router-dom';
import Home from './pages/home';
import Product from './pages/product';
import Search from './pages/search';

/**
 * Standalone development only (`npm run dev -w mf-catalog`): the catalog's pages on their own
 * routes, without the shell's header and footer. In the shop, the shell loads the exposed pages.
 */
export function App() {
  return (
    <BrowserRouter>
      <nav aria-label="Catalog pages">
        <Link to="/">Home</Link> · <Link to="/search">Search</Link>
      </nav>
      <main>
        <Routes>
          <Route path="/" element={<Home />} />
          <Route path="/search" element={<Search />} />
          <Route path="/search/:filterType" element={<Search />} />
          <Route path="/product/:productID" element={<Product />} />
        </Routes>
      </main>
    </BrowserRouter>
  );
}
