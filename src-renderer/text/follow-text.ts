import type { ConversionFollow } from '../../src-shared/model/conversion-follow.js';
import { numberFormat } from '../../src-shared/model/format.js';
import { currentLocale, t } from '../i18n/i18n.js';
import { translate } from '../i18n/translate.js';
import { serviceWord } from './service-words.js';

export interface FollowText {
  /** a short label: "Converting · transcoding", "Ready to watch" */
  label: string;
  /** a sentence with more, or null */
  detail: string | null;
  tone: 'neutral' | 'active' | 'ok' | 'warn' | 'error';
  /** the watch page can be opened and its link copied */
  watchable: boolean;
}

/** "40%", "40 %" as the person's locale writes it. */
const percent = (locale: string) => numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });

/**
 * A file after its upload or import, in words, for the queue row, the import
 * job and the Activity panel: uploaded → converting → ready to watch (or why
 * not). The stage is the service's own word, in the UI's language when the catalogs know it.
 */
export function describeFollow(follow: ConversionFollow, locale: string = currentLocale()): FollowText {
  const state = follow.state;
  switch (state.kind) {
    case 'following': {
      const conversion = state.conversion;
      if (conversion === null) {
        return {
          label: t('activity.follow.uploaded'),
          detail: t('activity.follow.checking'),
          tone: 'ok',
          watchable: false,
        };
      }
      return {
        label:
          conversion.progress === null
            ? t('activity.follow.converting', { stage: serviceWord('conversionStage', conversion.stage) })
            : t('activity.follow.convertingPercent', {
                stage: serviceWord('conversionStage', conversion.stage),
                percent: percent(locale).format(conversion.progress / 100),
              }),
        detail: t('activity.follow.convertingDetail'),
        tone: 'active',
        watchable: false,
      };
    }
    case 'ready':
      return {
        label: t('activity.follow.ready'),
        detail: t('activity.follow.readyDetail'),
        tone: 'ok',
        watchable: follow.watchUrl !== null,
      };
    case 'failed':
      return {
        label: t('activity.follow.failed'),
        detail: state.text ? translate(state.text) : state.reason,
        tone: 'warn',
        watchable: false,
      };
    case 'uploaded':
      return {
        label: t('activity.follow.uploaded'),
        detail: t('activity.follow.notAVideo'),
        tone: 'ok',
        watchable: false,
      };
    case 'deleted':
      return { label: t('activity.follow.deleted'), detail: null, tone: 'neutral', watchable: false };
    case 'stopped':
      return {
        label: t('activity.follow.uploaded'),
        detail: t('activity.follow.stopped'),
        tone: 'neutral',
        watchable: false,
      };
  }
}
