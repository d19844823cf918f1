import { describe, expect, it } from 'vitest';
import { editorPaintVerdicts, FIRST_PAINT_TARGET_MS } from '../lib/editor-paint.mjs';

describe("editors' screens verdicts", () => {
  it('judges each screen on its median first contentful paint, naming the figure', () => {
    const verdicts = editorPaintVerdicts(
      {
        dashboard: { path: '/dashboard', runs: 7, fcpMs: FIRST_PAINT_TARGET_MS - 1 },
        'add form': { path: '/dashboard?category=victims', runs: 7, fcpMs: FIRST_PAINT_TARGET_MS + 1 },
      },
      4,
    );
    expect(verdicts.map((v) => v.met)).toEqual([true, false]);
    expect(verdicts[0].target).toBe(`dashboard /dashboard, signed in, CPU 4x: first contentful paint <= ${FIRST_PAINT_TARGET_MS} ms`);
    expect(verdicts[1].figure).toBe(`${FIRST_PAINT_TARGET_MS + 1} ms (median of 7)`);
  });

  it('a screen that never painted is not met', () => {
    const [verdict] = editorPaintVerdicts({ dashboard: { path: '/dashboard', runs: 3, fcpMs: null } }, 4);
    expect(verdict.met).toBe(false);
    expect(verdict.figure).toBe('no paint recorded');
  });
});
