import { describe, expect, it } from 'vitest';
import { BacklogView } from './backlog-view.js';

const caps = { maxCount: 10, maxBytes: 1_000 };

describe('BacklogView', () => {
  it('knows nothing until it has seen the counter row', () => {
    expect(new BacklogView(() => 0).clearlyHasRoom(1, caps)).toBe(false);
  });

  it('answers only while under half of both caps', () => {
    const view = new BacklogView(() => 0);
    view.observe(4, 100);
    expect(view.clearlyHasRoom(400, caps)).toBe(true);
    expect(view.clearlyHasRoom(401, caps)).toBe(false);
    view.observe(5, 100);
    expect(view.clearlyHasRoom(1, caps)).toBe(false);
  });

  it('goes stale after 200 ms, and at once when told to forget', () => {
    let now = 0;
    const view = new BacklogView(() => now);
    view.observe(0, 0);
    now = 200;
    expect(view.clearlyHasRoom(1, caps)).toBe(true);
    now = 201;
    expect(view.clearlyHasRoom(1, caps)).toBe(false);
    view.observe(0, 0);
    view.forget();
    expect(view.clearlyHasRoom(1, caps)).toBe(false);
  });
});
