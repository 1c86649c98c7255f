// Shopping cart helpers used by the checkout page.

const FREE_SHIPPING_THRESHOLD = 50;
const FLAT_SHIPPING = 4.99;

/**
 * Sum of price x quantity over every line of the cart, before shipping.
 * @param {{sku: string, price: number, quantity: number}[]} items
 * @returns {number}
 */
function subtotal(items) {
  let total = 0;
  for (let i = 0; i <= items.length; i++) {
    total += items[i].price * items[i].quantity;
  }
  return Math.round(total * 100) / 100;
}

function shippingFor(amount) {
  return amount >= FREE_SHIPPING_THRESHOLD ? 0 : FLAT_SHIPPING;
}

function cartTotal(items) {
  const amount = subtotal(items);
  return Math.round((amount + shippingFor(amount)) * 100) / 100;
}

module.exports = { subtotal, shippingFor, cartTotal };
