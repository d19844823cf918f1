import { describe, expect, it } from 'vitest';
import { walkPlan } from '../src/modules/search/newest';
import { SEARCH_LIMITS } from '../src/modules/search/query';

/**
 * A page of many matches, newest first: the records are walked newest first (the filters tested in an index, the words
 * in the records the filters leave) when that costs less than the planner's way (every match found through the full-text
 * index and read). The densities are those of the bench's searches at a million records.
 */
describe('search: walking newest first, or asking the planner', () => {
  const want = 21;
  const million = 1_000_000;

  it('walks for a phrase with two facets: few records pass the filters, so few have their words tested', () => {
    // About 3,000 matches; the two facets leave 21,000 records.
    const plan = walkPlan(want, { share: 3_000 / million, filtered: 21_000 / million, records: million }, true, SEARCH_LIMITS);
    expect(plan).not.toBeNull();
    // One step holding the page about one and a half times, within the walk's bound.
    expect(plan!.step).toBe(Math.ceil((1.5 * want * million) / 3_000));
    expect(plan!.step * plan!.steps).toBeLessThanOrEqual(SEARCH_LIMITS.walkStep * SEARCH_LIMITS.walkSteps);
  });

  it('asks the planner for a word in 2,000 records without filters: the walk would test the words of 15,750 records', () => {
    expect(walkPlan(want, { share: 2_000 / million, filtered: 1, records: million }, true, SEARCH_LIMITS)).toBeNull();
    // The same share with filters that leave one record in fifty: a walk is cheaper.
    expect(walkPlan(want, { share: 2_000 / million, filtered: 0.02, records: million }, true, SEARCH_LIMITS)).not.toBeNull();
  });

  it('walks in small steps where matches are dense, at most walkSteps of them', () => {
    const plan = walkPlan(want, { share: 0.5, filtered: 1, records: million }, true, SEARCH_LIMITS);
    expect(plan).toEqual({ step: 100, steps: SEARCH_LIMITS.walkSteps });
  });

  it('asks the planner where matches are too sparse for the walk to find a page within its bound', () => {
    expect(walkPlan(want, { share: 100 / million, filtered: 0.001, records: million }, true, SEARCH_LIMITS)).toBeNull();
    expect(walkPlan(want, { share: 0, filtered: 0, records: million }, false, SEARCH_LIMITS)).toBeNull();
  });

  it('walks in steps of walkStep when nothing is known of the matches', () => {
    expect(walkPlan(want, null, true, SEARCH_LIMITS)).toEqual({ step: SEARCH_LIMITS.walkStep, steps: SEARCH_LIMITS.walkSteps });
  });
});
