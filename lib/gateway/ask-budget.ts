// How much one forwarded call may ask of a person. A malicious upstream can flood the gateway
// with questions (a 2026-07-28 upstream may put any number of input requests in one
// input_required result, and ask again every round; a 2025 one may send elicitation/create in a
// loop): past the budget, or with a request too large for anyone to read, the gateway answers
// the upstream with a decline itself, shows the person nothing and writes no record, so a flood
// costs neither people nor the store.
export const MAX_ASKS_PER_CALL = 10;
/** The serialized size of one upstream elicitation's params a person could be asked to read. */
export const MAX_ASK_BYTES = 32 * 1024;

const spent = new WeakMap<object, number>();

/** Counts one ask against this call's budget; false once it is spent. */
export function takeAsk(call: object): boolean {
  const n = (spent.get(call) ?? 0) + 1;
  spent.set(call, n);
  return n <= MAX_ASKS_PER_CALL;
}

/** Whether the params are small enough to show (a cheap bound before any lint or write). */
export function withinAskSize(params: unknown): boolean {
  try {
    return Buffer.byteLength(JSON.stringify(params) ?? "") <= MAX_ASK_BYTES;
  } catch {
    return false;
  }
}
