import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { onResponseClose } from '../../../runtime/http/close-listener.ts';

const response = () => new EventEmitter() as unknown as ServerResponse;

describe('onResponseClose', () => {
  it("counts each of its listeners into the response's limit, which stays Node's for every other listener", () => {
    const res = response();
    const calls: number[] = [];
    for (let index = 0; index < 12; index += 1) onResponseClose(res, () => calls.push(index));
    expect(res.getMaxListeners()).toBe(EventEmitter.defaultMaxListeners + 12);
    res.emit('close');
    expect(calls).toHaveLength(12);
  });

  it('leaves a response without a limit without one', () => {
    const res = response();
    res.setMaxListeners(0);
    onResponseClose(res, () => undefined);
    expect(res.getMaxListeners()).toBe(0);
  });
});
