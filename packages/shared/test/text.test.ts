import { describe, expect, it } from 'vitest';
import { jsonForScript } from '../src';

describe('jsonForScript', () => {
  it('keeps editor-written text from closing the script element or opening a comment, and reads back unchanged', () => {
    const value = { title: 'Sample </script><script>alert(1)</script> <!-- & \u2028\u2029 text', n: 3 };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
