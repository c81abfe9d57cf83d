// A generated reference_id is a UUID v4 the ReferenceId schema takes, and a new one each time.
import { describe, expect, it } from 'vitest';
import { newReferenceId, ReferenceId, validate } from '../src/index.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newReferenceId', () => {
  it('is a random UUID v4 that the ReferenceId schema accepts', () => {
    const ids = Array.from({ length: 200 }, newReferenceId);
    for (const id of ids) {
      expect(id).toMatch(UUID_V4);
      expect(validate(ReferenceId, id).ok).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
