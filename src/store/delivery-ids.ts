/**
 * The webhook deliveries the app has seen (docs/protocol.md §7), so a delivery that reaches
 * any replica twice is processed once.
 */
export interface DeliveryIds {
  /**
   * Records a webhook delivery id. Resolves true the first time an id is seen within `ttlMs`
   * (GitHub redelivers for up to 3 days), false for a duplicate. Atomic across replicas.
   */
  markDelivery(deliveryId: string, ttlMs: number): Promise<boolean>;
  /** Keeps a recorded delivery id for `ttlMs` from now (its request was queued). */
  confirmDelivery(deliveryId: string, ttlMs: number): Promise<void>;
  /** Forgets a delivery id, so a redelivery of it is processed (its request was not queued). */
  forgetDelivery(deliveryId: string): Promise<void>;
}
