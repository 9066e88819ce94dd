import { describe, expect, it } from 'vitest';
import type { MediaFileDetail } from '../../../../src-shared/api/index.js';
import { FileChangesSchema } from '../../../../src-shared/model/visibility.js';
import { draftFromFile, fileChanges, validateFileDraft } from '../../../../src-renderer/text/file-edit.js';

const file: MediaFileDetail = {
  id: 'abc123',
  name: 'Holiday',
  filename: 'holiday.mp4',
  mime: 'video/mp4',
  extension: 'mp4',
  size_bytes: 1000,
  visibility: 'public',
  password_protected: false,
  allow_online_watch: true,
  downloads: 3,
  stream_views: 7,
  urls: {
    page: 'http://files.test/abc123/file',
    watch: 'http://files.test/abc123/watch',
    embed: 'http://files.test/abc123/embed',
  },
  description: 'Beach',
};

describe('the file edit form', () => {
  it('starts from the file and sends nothing when nothing changed', () => {
    const draft = draftFromFile(file);
    expect(draft).toEqual({
      name: 'Holiday',
      description: 'Beach',
      visibility: 'public',
      allowOnlineWatch: true,
      passwordAction: 'keep',
      password: '',
    });
    expect(validateFileDraft(draft)).toEqual({});
    expect(fileChanges(file, draft)).toEqual({});
  });

  it('enforces the spec limits per field, in characters (an emoji is one)', () => {
    const draft = draftFromFile(file);
    expect(validateFileDraft({ ...draft, name: 'x'.repeat(256) })).toEqual({
      name: 'Name must be at most 255 characters (256 now).',
    });
    expect(validateFileDraft({ ...draft, name: '🎬'.repeat(255) })).toEqual({});
    expect(validateFileDraft({ ...draft, name: '   ' })).toEqual({ name: 'Name must not be blank.' });
    expect(validateFileDraft({ ...draft, description: 'd'.repeat(1001) })).toEqual({
      description: 'Description must be at most 1,000 characters (1,001 now).',
    });
    expect(validateFileDraft({ ...draft, passwordAction: 'set', password: '' }).password).toMatch(/Enter the new/);
    expect(validateFileDraft({ ...draft, passwordAction: 'set', password: 'p'.repeat(256) }).password).toBe(
      'Password must be at most 255 characters (256 now).',
    );
  });

  it('sends only what changed, as a body the API schema accepts', () => {
    const draft = {
      ...draftFromFile(file),
      name: 'Holiday 2024',
      description: '',
      visibility: 'private' as const,
      allowOnlineWatch: false,
      passwordAction: 'set' as const,
      password: 'hunter2',
    };
    const changes = fileChanges(file, draft);
    expect(changes).toEqual({
      name: 'Holiday 2024',
      description: null,
      visibility: 'private',
      allow_online_watch: false,
      password: 'hunter2',
    });
    expect(FileChangesSchema.parse(changes)).toEqual(changes);
  });

  it('removes a password only from a protected file, and leaves an unknown description alone', () => {
    const protectedFile = { ...file, password_protected: true, description: undefined };
    const draft = draftFromFile(protectedFile);
    expect(draft.description).toBe('');
    expect(fileChanges(protectedFile, { ...draft, passwordAction: 'remove' })).toEqual({ password: null });
    expect(fileChanges(file, { ...draftFromFile(file), passwordAction: 'remove' })).toEqual({});
    expect(fileChanges(protectedFile, { ...draft, description: 'New' })).toEqual({ description: 'New' });
  });
});
