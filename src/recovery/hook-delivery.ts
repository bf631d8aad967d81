import { z } from 'zod';

/**
 * One attempt of a webhook delivery as `GET /app/hook/deliveries` lists it: every attempt
 * (the first and each redelivery) has an id of its own and the delivery's `guid`. Only the
 * fields recovery reads; GitHub sends more.
 */
export const HookDelivery = z.object({
  id: z.number().int(),
  guid: z.string(),
  delivered_at: z.string(),
  redelivery: z.boolean(),
  /** The app's HTTP answer; 0 (or absent on old servers) when GitHub got none. */
  status_code: z.number().int().nullish(),
  event: z.string(),
  action: z.string().nullish(),
});

/** {@link HookDelivery} as parsed. */
export type HookDelivery = z.infer<typeof HookDelivery>;
