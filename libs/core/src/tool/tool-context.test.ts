import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionContext, ToolContext } from './tool-context.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('ToolContext', () => {
  it('fires at the deadline under fake timers, with a TimeoutError', () => {
    vi.useFakeTimers();
    const context = ToolContext.create(SessionContext.forTesting(), { timeoutMs: 1_000 });
    vi.advanceTimersByTime(999);
    expect(context.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(context.signal.reason).toMatchObject({ name: 'TimeoutError' });
    expect(ToolContext.timedOut(context)).toBe(true);
  });

  it('tells its caller of the deadline before anyone read the signal; a later read sees it aborted', () => {
    vi.useFakeTimers();
    const onAbort = vi.fn();
    const context = ToolContext.create(SessionContext.forTesting(), {
      timeoutMs: 5,
      now: Date.now(),
      onAbort,
    });
    vi.advanceTimersByTime(5);
    expect(onAbort).toHaveBeenCalledWith(expect.objectContaining({ name: 'TimeoutError' }));
    expect(ToolContext.timedOut(context)).toBe(true);
    expect(context.signal.aborted).toBe(true);
    expect(context.signal.reason).toMatchObject({ name: 'TimeoutError' });
    vi.advanceTimersByTime(60_000);
    expect(onAbort).toHaveBeenCalledTimes(1);
  });

  it('judges a context it did not create by its signal', () => {
    const controller = new AbortController();
    const foreign = { signal: controller.signal, deadline: 0, sessionContext: SessionContext.forTesting() };
    expect(ToolContext.timedOut(foreign)).toBe(false);
    expect(ToolContext.aborted(foreign)).toBe(false);
    expect(() => ToolContext.throwIfAborted(foreign)).not.toThrow();
    controller.abort(new DOMException('late', 'TimeoutError'));
    expect(ToolContext.timedOut(foreign)).toBe(true);
    expect(ToolContext.aborted(foreign)).toBe(true);
    expect(() => ToolContext.throwIfAborted(foreign)).toThrow('late');
  });

  it('reports having fired and throws its reason without creating a signal first', () => {
    const session = new AbortController();
    const context = ToolContext.create(SessionContext.create('s', session.signal), { timeoutMs: 60_000 });
    expect(ToolContext.aborted(context)).toBe(false);
    expect(() => ToolContext.throwIfAborted(context)).not.toThrow();
    session.abort('stop now');
    expect(ToolContext.aborted(context)).toBe(true);
    expect(() => ToolContext.throwIfAborted(context)).toThrow('stop now');
  });

  it("fires with the session's own reason when the session is cancelled", () => {
    const session = new AbortController();
    const context = ToolContext.create(SessionContext.create('s', session.signal), { timeoutMs: 60_000 });
    const reason = new Error('interrupted');
    session.abort(reason);
    expect(context.signal.reason).toBe(reason);
    expect(ToolContext.timedOut(context)).toBe(false);
    const late = ToolContext.create(SessionContext.create('s', session.signal), { timeoutMs: 60_000 });
    expect(late.signal.reason).toBe(reason);
    late[Symbol.dispose]();
  });

  it('dispose releases the deadline and the session link', () => {
    vi.useFakeTimers();
    const session = new AbortController();
    {
      using context = ToolContext.create(SessionContext.create('s', session.signal), { timeoutMs: 10 });
      expect(vi.getTimerCount()).toBe(1);
      void context;
    }
    expect(vi.getTimerCount()).toBe(0);
    const kept = ToolContext.create(SessionContext.create('s', session.signal), { timeoutMs: 10 });
    kept[Symbol.dispose]();
    session.abort(new Error('later'));
    vi.advanceTimersByTime(10);
    expect(kept.signal.aborted).toBe(false);
  });
});
