import { useParams } from 'react-router-dom';
import { ReleaseLabel } from '../release-label';
import '../styles.css';

/** Placeholder until the catalog issue: image, name, price, Add to cart and description come here. */
export default function Product() {
  const { productID } = useParams();
  return (
    <section className="catalog-page" aria-labelledby="catalog-product-title">
      <h1 id="catalog-product-title">Product</h1>
      <p>Product ID: {productID}</p>
      <ReleaseLabel />
    </section>
  );
}
