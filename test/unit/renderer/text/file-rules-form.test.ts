import { describe, expect, it } from 'vitest';
import { fileRulesDraft, fileRulesFromDraft } from '../../../../src-renderer/text/file-rules-form.js';

const NONE = { fileTypes: null, minSize: null, maxSize: null, modifiedAfter: null };

describe('the folder form’s file rules', () => {
  it('keeps "every file" as it is, and reads back what it shows', () => {
    expect(fileRulesFromDraft(fileRulesDraft(NONE))).toEqual({ rules: NONE, errors: {} });
    const rules = {
      fileTypes: { groups: ['videos' as const], extensions: ['braw'] },
      minSize: 1_000_000,
      maxSize: 4_000_000_000,
      modifiedAfter: new Date(2026, 0, 1).getTime(),
    };
    const draft = fileRulesDraft(rules);
    expect(draft).toMatchObject({ extensionsText: 'braw', minMb: '1', maxMb: '4000', modifiedAfter: '2026-01-01' });
    expect(fileRulesFromDraft(draft).rules).toEqual(rules);
  });

  it('takes extensions as typed, and MB with a decimal comma', () => {
    const draft = { ...fileRulesDraft(NONE), everyType: false, extensionsText: '.BRAW, r3d  mxf', minMb: '0,5' };
    expect(fileRulesFromDraft(draft).rules).toMatchObject({
      fileTypes: { groups: [], extensions: ['braw', 'r3d', 'mxf'] },
      minSize: 500_000,
    });
  });

  it('says what is wrong: no type chosen, an extension that is not one, a minimum above the maximum', () => {
    const draft = fileRulesDraft(NONE);
    expect(fileRulesFromDraft({ ...draft, everyType: false }).errors).toEqual({
      types: 'Choose at least one type, or every type.',
    });
    expect(fileRulesFromDraft({ ...draft, everyType: false, extensionsText: 'mp4, m*v' }).errors).toEqual({
      extensions: 'Not an extension: m*v',
    });
    const sizes = fileRulesFromDraft({ ...draft, minMb: '5', maxMb: '1' });
    expect(sizes).toEqual({ rules: null, errors: { size: 'The smallest size must not be above the largest.' } });
    expect(fileRulesFromDraft({ ...draft, maxMb: 'big' }).rules).toBeNull();
  });
});
