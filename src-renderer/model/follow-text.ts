import type { ConversionFollow } from '../../src-shared/model/conversion-follow.js';

export interface FollowText {
  /** a short label: "Converting · transcoding", "Ready to watch" */
  label: string;
  /** a sentence with more, or null */
  detail: string | null;
  tone: 'neutral' | 'active' | 'ok' | 'warn' | 'error';
  /** the watch page can be opened and its link copied */
  watchable: boolean;
}

/** One formatter for every call ("40 %" as the person's locale writes it). */
const percent = new Intl.NumberFormat([], { style: 'percent', maximumFractionDigits: 0 });

/**
 * A file after its upload or import, in words, for the queue row, the import
 * job and the Activity panel: uploaded → converting → ready to watch (or why
 * not). The stage is the service's own word, shown as it sent it.
 */
export function describeFollow(follow: ConversionFollow): FollowText {
  const state = follow.state;
  switch (state.kind) {
    case 'following': {
      const conversion = state.conversion;
      if (conversion === null) {
        return {
          label: 'Uploaded',
          detail: 'Media Sync is checking whether the service converts it for streaming.',
          tone: 'ok',
          watchable: false,
        };
      }
      return {
        label:
          conversion.progress === null
            ? `Converting · ${conversion.stage}`
            : `Converting · ${conversion.stage} · ${percent.format(conversion.progress / 100)}`,
        detail: 'The service is converting it for streaming.',
        tone: 'active',
        watchable: false,
      };
    }
    case 'ready':
      return {
        label: 'Ready to watch',
        detail: 'The service finished converting it.',
        tone: 'ok',
        watchable: follow.watchUrl !== null,
      };
    case 'failed':
      return { label: 'Conversion failed', detail: state.reason, tone: 'warn', watchable: false };
    case 'uploaded':
      return { label: 'Uploaded', detail: 'Not a video: there is nothing to convert.', tone: 'ok', watchable: false };
    case 'deleted':
      return { label: 'Deleted from the service', detail: null, tone: 'neutral', watchable: false };
    case 'stopped':
      return {
        label: 'Uploaded',
        detail: 'Still not converted after 24 hours: Media Sync stopped checking.',
        tone: 'neutral',
        watchable: false,
      };
  }
}
