/** A path segment: lowercase letters and digits, words joined with single hyphens. */
export const SEGMENT = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A property name: lowercase snake_case. */
export const PROPERTY = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** `tradeOrders` / `Trade_Orders` → `trade-orders`. */
export function toSegment(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[_\s]+/g, '-')
    .toLowerCase()
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

/** `orderId` / `Order-ID` → `order_id`. */
export function toProperty(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase()
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
}
