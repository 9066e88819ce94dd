import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { IpcRequest } from '../../src-shared/ipc/ipc-contract.js';
import { PAUSE_HOURS, pauseUntil, type PauseHours } from '../../src-shared/model/queue-pause.js';
import { useLocale } from '../i18n/i18n.js';

type PauseChoice = PauseHours | null;
/** `until`: when the pause ends (epoch ms), null until resumed; `afterChunk`: once the chunks being sent are confirmed */
export type PauseAllRequest = IpcRequest<'uploads:pauseAll'>;

const HOURS: PauseChoice[] = [...PAUSE_HOURS, null];
/** until resumed, once the chunks being sent are confirmed */
const AFTER_CHUNKS = 'afterChunks' as const;

/**
 * "Pause all" with its presets, as a menu button (WAI-ARIA APG): Enter, Space
 * or ArrowDown open it on the first choice, arrows move, Escape closes it and
 * gives the focus back to the button. With `afterChunks` (something is
 * uploading) it also offers to pause once the chunks being sent are
 * confirmed, so their bytes are kept.
 */
export function PauseMenu(props: {
  onPause: (request: PauseAllRequest) => void;
  afterChunks?: boolean;
  disabled?: boolean;
}) {
  const { onPause, disabled } = props;
  const choices: (PauseChoice | typeof AFTER_CHUNKS)[] = props.afterChunks ? [...HOURS, AFTER_CHUNKS] : HOURS;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const { t } = useLocale();
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const wrapper = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (open) items.current[active]?.focus();
  }, [open, active]);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  function show(at: number) {
    setActive(at);
    setOpen(true);
  }

  function close() {
    setOpen(false);
    button.current?.focus();
  }

  function onMenuKey(event: KeyboardEvent) {
    const last = choices.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: active === last ? 0 : active + 1,
      ArrowUp: active === 0 ? last : active - 1,
      Home: 0,
      End: last,
    };
    if (event.key in moves) {
      event.preventDefault();
      setActive(moves[event.key]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  }

  return (
    <div className="pause-menu" ref={wrapper}>
      <button
        ref={button}
        type="button"
        className="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={() => (open ? setOpen(false) : show(0))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            show(event.key === 'ArrowUp' ? choices.length - 1 : 0);
          }
        }}
      >
        {t('pause.all')} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div
          className="pause-menu__list"
          role="menu"
          id={menuId}
          aria-label={t('pause.menuLabel')}
          onKeyDown={onMenuKey}
        >
          {choices.map((choice, index) => (
            <button
              key={String(choice)}
              ref={(element) => {
                items.current[index] = element;
              }}
              type="button"
              role="menuitem"
              tabIndex={index === active ? 0 : -1}
              className="pause-menu__item"
              onClick={() => {
                close();
                if (choice === AFTER_CHUNKS) onPause({ until: null, afterChunk: true });
                else onPause({ until: pauseUntil(choice, Date.now()) });
              }}
            >
              {choice === AFTER_CHUNKS
                ? t('pause.afterChunks')
                : choice === null
                  ? t('pause.untilResumed')
                  : t('pause.forHours', { count: choice })}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
